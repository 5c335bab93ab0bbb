import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * When someone first signed in through each SSO provider (docs/sso.md): the server's proof that the connection was
 * tested, which requiring SSO asks for (server/modules/organizations/operations/update-security-policy.ts). Set at
 * the first sign-in after the provider was registered or last changed, cleared by a change. A provider that people
 * already signed in through (an account linked to it) counts as tested since the first such account was made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = await columnTypes(db);
  await db.schema
    .alterTable("ssoProvider")
    .addColumn("firstSignInAt", timestamp as "timestamptz")
    .execute();
  await sql`
    UPDATE "ssoProvider" SET "firstSignInAt" = (
      SELECT min("account"."createdAt") FROM "account" WHERE "account"."providerId" = "ssoProvider"."providerId"
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("ssoProvider").dropColumn("firstSignInAt").execute();
}

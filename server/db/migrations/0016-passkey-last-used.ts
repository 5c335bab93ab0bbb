import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * When each passkey last signed someone in: @better-auth/passkey keeps only the signature counter, and the account's
 * list of passkeys shows this date so a person can tell a forgotten one from the one they use. Set by
 * server/auth/passkey-rules.ts; null until the passkey's first sign-in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = await columnTypes(db);
  await db.schema
    .alterTable("passkey")
    .addColumn("lastUsedAt", timestamp as "timestamptz")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("passkey").dropColumn("lastUsedAt").execute();
}

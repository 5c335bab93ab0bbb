import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * When a session last proved it is its person's again without a new sign-in (`POST /api/account/reauthenticate`):
 * a session is fresh for 10 minutes after the later of its creation and this (server/auth/fresh-authentication.ts).
 * better-auth does not know the column; only the app reads and writes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = await columnTypes(db);
  await db.schema
    .alterTable("session")
    .addColumn("reauthenticatedAt", timestamp as "timestamptz")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("session").dropColumn("reauthenticatedAt").execute();
}

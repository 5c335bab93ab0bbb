import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Joining by verified domain (docs/sso.md): an organization may let anyone whose verified e-mail address is on one of
 * its verified SSO domains join it without an invitation. Off by default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { boolean } = await columnTypes(db);
  await db.schema
    .alterTable("organization")
    .addColumn("allowDomainJoin", boolean as "boolean", (col) => col.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("organization").dropColumn("allowDomainJoin").execute();
}

import type { Kysely, Migration } from "kysely";

/**
 * The migration "the next version" of the server adds (server/test/next-version-server.ts), for the rolling-upgrade
 * test: additive, as expand/contract asks of a release (docs/deployment.md, "Upgrading"): a nullable column on a
 * table the load writes, which the previous version, still serving on the same database, neither reads nor writes.
 * Named to sort after every checked-in migration.
 */
export const NEXT_VERSION_MIGRATION = "9999-next-version";
export const NEXT_VERSION_COLUMN = "nextVersionNote";

export const nextVersionMigration: Migration = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration works on any schema
  up: async (db: Kysely<any>) => {
    await db.schema.alterTable("invitation").addColumn(NEXT_VERSION_COLUMN, "text").execute();
  },
};

import { Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import * as auth from "./migrations/0001-auth";
import * as mail from "./migrations/0002-mail";
import * as organizations from "./migrations/0003-organizations";
import * as mailRetention from "./migrations/0004-mail-retention";
import * as billing from "./migrations/0005-billing";
import * as accountEmail from "./migrations/0006-account-email";
import * as auditLog from "./migrations/0007-audit-log";
import * as userSearch from "./migrations/0008-user-search";
import * as cacheInvalidation from "./migrations/0009-cache-invalidation";
import * as userSearchFacets from "./migrations/0010-user-search-facets";

/** Checked-in migrations in order. A new one is a new file here and a new line below. */
export const migrations: Record<string, Migration> = {
  "0001-auth": auth,
  "0002-mail": mail,
  "0003-organizations": organizations,
  "0004-mail-retention": mailRetention,
  "0005-billing": billing,
  "0006-account-email": accountEmail,
  "0007-audit-log": auditLog,
  "0008-user-search": userSearch,
  "0009-cache-invalidation": cacheInvalidation,
  "0010-user-search-facets": userSearchFacets,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies every pending migration; throws with the failing migration's name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return (results ?? []).map((result) => result.migrationName);
}

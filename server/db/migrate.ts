import {
  Migrator,
  SqliteAdapter,
  sql,
  type Kysely,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
} from "kysely";
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
import * as jobSchedule from "./migrations/0011-job-schedule";
import * as billingUsageCount from "./migrations/0012-billing-usage-count";
import * as secondFactors from "./migrations/0013-second-factors";
import * as totpReplay from "./migrations/0014-totp-replay";
import * as freshAuthentication from "./migrations/0015-fresh-authentication";
import * as passkeyLastUsed from "./migrations/0016-passkey-last-used";
import * as organizationSecurity from "./migrations/0017-organization-security";
import * as enterpriseSso from "./migrations/0018-enterprise-sso";
import * as scim from "./migrations/0019-scim";
import * as apiKeys from "./migrations/0020-api-keys";
import * as outboundWebhooks from "./migrations/0021-outbound-webhooks";
import * as domainJoin from "./migrations/0022-domain-join";
import * as ssoFirstSignIn from "./migrations/0023-sso-first-sign-in";
import * as webhookRetention from "./migrations/0024-webhook-retention";
import * as apiKeyActors from "./migrations/0025-api-key-actors";
import { ssoSecretsAtRest } from "./migrations/0026-sso-secrets-at-rest";
import * as memberJoinOrder from "./migrations/0027-member-join-order";
import * as devWebhookReceiptRetention from "./migrations/0028-dev-webhook-receipt-retention";
import * as memberSearch from "./migrations/0029-member-search";
import * as userCount from "./migrations/0030-user-count";
import * as memberOwners from "./migrations/0031-member-owners";
import * as invitationChanges from "./migrations/0032-invitation-changes";
import * as memberCount from "./migrations/0033-member-count";
import * as userSearchCommonTerms from "./migrations/0034-user-search-common-terms";

/**
 * What the migrations need besides the database: the auth secret, which 0026 encrypts the SSO providers' secrets
 * with (`null` for a database that holds no provider, such as a new one: 0026 then fails on a secret to encrypt).
 */
export type MigrationContext = { authSecret: string | null };

/** Checked-in migrations in order. A new one is a new file here and a new line below. */
export const checkedInMigrations = ({ authSecret }: MigrationContext): Record<string, Migration> => ({
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
  "0011-job-schedule": jobSchedule,
  "0012-billing-usage-count": billingUsageCount,
  "0013-second-factors": secondFactors,
  "0014-totp-replay": totpReplay,
  "0015-fresh-authentication": freshAuthentication,
  "0016-passkey-last-used": passkeyLastUsed,
  "0017-organization-security": organizationSecurity,
  "0018-enterprise-sso": enterpriseSso,
  "0019-scim": scim,
  "0020-api-keys": apiKeys,
  "0021-outbound-webhooks": outboundWebhooks,
  "0022-domain-join": domainJoin,
  "0023-sso-first-sign-in": ssoFirstSignIn,
  "0024-webhook-retention": webhookRetention,
  "0025-api-key-actors": apiKeyActors,
  "0026-sso-secrets-at-rest": ssoSecretsAtRest(authSecret),
  "0027-member-join-order": memberJoinOrder,
  "0028-dev-webhook-receipt-retention": devWebhookReceiptRetention,
  "0029-member-search": memberSearch,
  "0030-user-count": userCount,
  "0031-member-owners": memberOwners,
  "0032-invitation-changes": invitationChanges,
  "0033-member-count": memberCount,
  "0034-user-search-common-terms": userSearchCommonTerms,
});

/** The checked-in migrations, in order, for a database that holds no SSO provider's secret (their names, tests). */
export const migrations = checkedInMigrations({ authSecret: null });

/**
 * Migrations applied after the checked-in ones. Empty in the product: only the rolling-upgrade test's "next version"
 * (server/test/next-version-server.ts) adds one, the release after this one as a process sees it.
 */
export const appendedMigrations: Record<string, Migration> = {};

/** How long a process waits for another one's migrations on SQLite before giving up. */
const SQLITE_MIGRATION_WAIT_MS = 120_000;

/**
 * Applies every pending migration; throws with the failing migration's name. Safe when several processes start at
 * once on one database: one applies, the others wait for it and then find nothing left to do.
 * - PostgreSQL: Kysely's migrator takes a session advisory lock and applies each run in a transaction, and its
 *   creation of its own tables tolerates a concurrent creation.
 * - SQLite: Kysely takes no lock (it assumes one process), and a transaction that reads before it writes cannot
 *   wait for another process's write lock (SQLITE_BUSY at once). So the whole run is one `BEGIN IMMEDIATE`
 *   transaction, which takes the write lock first and waits for it; a failing migration rolls back the whole run.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export async function migrateToLatest(db: Kysely<any>, context: MigrationContext): Promise<string[]> {
  const provider: MigrationProvider = {
    getMigrations: async () => ({ ...checkedInMigrations(context), ...appendedMigrations }),
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  const migrate = (on: Kysely<any>) => new Migrator({ db: on, provider }).migrateToLatest();
  const { error, results } =
    db.getExecutor().adapter instanceof SqliteAdapter ? await migrateSqlite(db, migrate) : await migrate(db);
  const failed = results?.find((result) => result.status === "Error");
  if (error) {
    throw new Error(
      `Migration ${failed?.migrationName ?? "(unknown)"} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).map((result) => result.migrationName);
}

/* eslint-disable @typescript-eslint/no-explicit-any -- as above */
async function migrateSqlite(
  db: Kysely<any>,
  migrate: (on: Kysely<any>) => Promise<MigrationResultSet>,
): Promise<MigrationResultSet> {
  /* eslint-enable @typescript-eslint/no-explicit-any */
  return db.connection().execute(async (connection) => {
    const deadline = Date.now() + SQLITE_MIGRATION_WAIT_MS;
    // busy_timeout makes each attempt wait a few seconds for the lock; a longer run of another process outlasts it.
    for (;;) {
      try {
        await sql`begin immediate`.execute(connection);
        break;
      } catch (error) {
        if ((error as { code?: unknown }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
      }
    }
    try {
      const result = await migrate(connection);
      await sql.raw(result.error ? "rollback" : "commit").execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
}

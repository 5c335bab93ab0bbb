import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { Logger } from "../logger";
import { purgeAuditLog } from "../modules/audit";
import { startPollingLoop, type PollingLoop } from "./polling-loop";

const HOUR_MS = 3_600_000;

/**
 * Purges audit log entries older than the retention setting (`AUDIT_RETENTION_DAYS`): at start, then hourly.
 * The only way entries leave the log; each instance may run it, deleting by age is the same done twice.
 */
export function startAuditRetention(deps: { db: Kysely<Database>; logger: Logger; retentionDays: number; everyMs?: number }): PollingLoop {
  const loop = startPollingLoop(
    "audit log purge",
    async () => {
      const purged = await purgeAuditLog(deps.db, deps.retentionDays);
      if (purged > 0) deps.logger.info("old audit log entries purged", { purged, retentionDays: deps.retentionDays });
    },
    { logger: deps.logger, pollMs: deps.everyMs ?? HOUR_MS },
  );
  loop.nudge();
  return loop;
}

import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { Logger } from "../logger";
import { purgeAuditLog } from "../modules/audit";
import { runScheduledJob } from "./job-schedule";
import { startPollingLoop, type PollingLoop } from "./polling-loop";

const HOUR_MS = 3_600_000;
/** How often an instance looks whether the purge is due: well under its period, so the period does not stretch. */
const POLL_MS = 60_000;

/**
 * Purges audit log entries older than the retention setting (`AUDIT_RETENTION_DAYS`): hourly, by one instance
 * (server/jobs/job-schedule.ts), the first time at the first start on a database. The only way entries leave the log.
 */
export function startAuditRetention(deps: {
  db: Kysely<Database>;
  logger: Logger;
  retentionDays: number;
  everyMs?: number;
}): PollingLoop {
  const everyMs = deps.everyMs ?? HOUR_MS;
  const loop = startPollingLoop(
    "audit log purge",
    async () => {
      await runScheduledJob(deps.db, "audit log purge", everyMs, async () => {
        const purged = await purgeAuditLog(deps.db, deps.retentionDays);
        if (purged > 0) deps.logger.info("old audit log entries purged", { purged, retentionDays: deps.retentionDays });
      });
    },
    { logger: deps.logger, pollMs: Math.min(POLL_MS, everyMs) },
  );
  loop.nudge();
  return loop;
}

import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { Logger } from "../logger";
import { purgeDevWebhookReceipts, purgeWebhookHistory } from "../modules/webhooks";
import { runScheduledJob } from "./job-schedule";
import { startPollingLoop, type PollingLoop } from "./polling-loop";

const HOUR_MS = 3_600_000;
/** How often an instance looks whether the purge is due: well under its hour, so the period does not stretch. */
const POLL_MS = 60_000;

/**
 * Purges the outbound webhooks' delivery history older than the retention setting (`WEBHOOK_RETENTION_DAYS`), then
 * the development receiver's receipts older than it: hourly, by one instance (server/jobs/job-schedule.ts), the first
 * time at the first start on a database. Messages still to deliver are kept whatever their age. A stop ends the run
 * after the batch under way; the rest goes at the next run.
 * `now` is the webhook worker's clock (tests move it); the schedule itself runs on the real one.
 */
export function startWebhookRetention(deps: {
  db: Kysely<Database>;
  logger: Logger;
  retentionDays: number;
  now?: () => Date;
}): PollingLoop {
  const now = deps.now ?? (() => new Date());
  const loop = startPollingLoop(
    "webhook history purge",
    async (stopping) => {
      await runScheduledJob(deps.db, "webhook history purge", HOUR_MS, async () => {
        const options = { retentionDays: deps.retentionDays, now: now(), stopping };
        const purged = await purgeWebhookHistory(deps.db, options);
        if (purged > 0)
          deps.logger.info("old webhook deliveries purged", { purged, retentionDays: deps.retentionDays });
        if (stopping.aborted) return;
        const receipts = await purgeDevWebhookReceipts(deps.db, options);
        if (receipts > 0)
          deps.logger.info("old development webhook receipts purged", { receipts, retentionDays: deps.retentionDays });
      });
    },
    { logger: deps.logger, pollMs: POLL_MS },
  );
  loop.nudge();
  return loop;
}

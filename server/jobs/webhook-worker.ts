import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { Logger } from "../logger";
import type { MailQueue } from "../modules/mail";
import {
  claimMessage,
  deliverMessage,
  DELIVERY_TIMEOUT_MS,
  DISABLE_AFTER_FAILING_MS,
  findDueHeads,
  RETRY_SCHEDULE_MS,
  type AddressPolicy,
  type DeliveryOptions,
} from "../modules/webhooks";
import { startPollingLoop, type PollingLoop } from "./polling-loop";

export type WebhookWorker = PollingLoop;

/** Endpoints delivered to side by side in one pass (one message each: the first in its line). */
const BATCH = 10;

export type WebhookWorkerOptions = {
  db: Kysely<Database>;
  mail: MailQueue;
  logger: Logger;
  policy: AddressPolicy;
  baseUrl: string;
  pollMs?: number;
  /** Tests move time on by hand and shorten the schedule; production uses the real clock and RETRY_SCHEDULE_MS. */
  now?: () => Date;
  retryScheduleMs?: readonly number[];
  timeoutMs?: number;
  disableAfterFailingMs?: number;
};

/**
 * Delivers the organizations' webhook messages (docs/decisions/0025), like the mail outbox worker: each message is
 * claimed right before its delivery with a lease twice the delivery timeout, so several instances deliver each
 * attempt once; only the first undelivered message of an endpoint is ever due, so an endpoint gets its events in
 * order. Endpoints are delivered to side by side, so one that hangs holds up only its own line.
 */
export function startWebhookWorker(deps: WebhookWorkerOptions): WebhookWorker {
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseMs = timeoutMs * 2;
  const now = deps.now ?? (() => new Date());
  const options: DeliveryOptions = {
    db: deps.db,
    mail: deps.mail,
    logger: deps.logger,
    policy: deps.policy,
    baseUrl: deps.baseUrl,
    now,
    retryScheduleMs: deps.retryScheduleMs ?? RETRY_SCHEDULE_MS,
    timeoutMs,
    disableAfterFailingMs: deps.disableAfterFailingMs ?? DISABLE_AFTER_FAILING_MS,
  };

  async function runOnce(stopping: AbortSignal): Promise<void> {
    // Pass after pass while messages are claimed: a delivered message makes its endpoint's next one due at once.
    for (;;) {
      const due = await findDueHeads(deps.db, now(), BATCH);
      const claimed = await Promise.all(
        due.map(async (candidate) => {
          if (stopping.aborted) return false;
          const message = await claimMessage(deps.db, candidate, now(), leaseMs);
          if (message) await deliverMessage(options, message);
          return message !== null;
        }),
      );
      if (!claimed.includes(true) || stopping.aborted) return;
    }
  }

  return startPollingLoop("webhook worker", runOnce, { logger: deps.logger, pollMs: deps.pollMs ?? 2_000 });
}

import type { Kysely } from "kysely";
import { backoffMs } from "../../common/backoff";
import type { Database } from "../db/schema";
import {
  claimMail,
  findDueMails,
  markMailFailed,
  markMailSent,
  purgeMailsCreatedBefore,
  type ClaimedMail,
  type MailTransport,
} from "../modules/mail";
import type { Logger } from "../logger";
import { withTimeout } from "../timeout";
import { runScheduledJob } from "./job-schedule";
import { startPollingLoop, type PollingLoop } from "./polling-loop";

export const MAX_MAIL_ATTEMPTS = 10;
/** The longest one send may take: then the worker abandons it (aborting the transport) and retries later. */
export const SEND_TIMEOUT_MS = 30_000;
/**
 * How long a claimed row belongs to its worker: twice the longest send, so the lease cannot run out while the
 * send and the write that finishes the row are still under way, and another instance send it again.
 */
export function leaseMsFor(sendTimeoutMs: number): number {
  return sendTimeoutMs * 2;
}
export const LEASE_MS = leaseMsFor(SEND_TIMEOUT_MS);
/**
 * Finished outbox rows and dev mailbox mails are deleted a day after they were queued. A day leaves time to
 * look into a delivery problem; keeping them longer only keeps sign-in material around: reset and
 * verification links (valid for an hour) and invitation links, readable by anyone who reads the database.
 */
export const MAIL_RETENTION_MS = 24 * 3_600_000;
const PURGE_EVERY_MS = 3_600_000;
const BATCH = 20;

/** Exponential backoff: 5 s, 10 s, 20 s … capped at one hour. */
export function retryDelayMs(attempt: number): number {
  return backoffMs(attempt, { baseMs: 5_000, maxMs: 3_600_000 });
}

export type OutboxWorker = PollingLoop;

export type OutboxWorkerOptions = {
  db: Kysely<Database>;
  transport: MailTransport;
  logger: Logger;
  pollMs?: number;
  sendTimeoutMs?: number;
  /** Must be longer than `sendTimeoutMs`; `leaseMsFor(sendTimeoutMs)` by default. */
  leaseMs?: number;
  retentionMs?: number;
  purgeEveryMs?: number;
};

/**
 * Delivers outbox mail with retries; polls, and runs at once when nudged after a mail is queued. Each mail is
 * claimed before its send, so several instances send it once. Old mail is purged hourly, by one instance.
 */
export function startOutboxWorker(deps: OutboxWorkerOptions): OutboxWorker {
  const pollMs = deps.pollMs ?? 2_000;
  const sendTimeoutMs = deps.sendTimeoutMs ?? SEND_TIMEOUT_MS;
  const leaseMs = deps.leaseMs ?? leaseMsFor(sendTimeoutMs);
  const retentionMs = deps.retentionMs ?? MAIL_RETENTION_MS;
  const purgeEveryMs = deps.purgeEveryMs ?? PURGE_EVERY_MS;
  if (leaseMs <= sendTimeoutMs)
    throw new RangeError(`the outbox lease (${leaseMs} ms) must be longer than the send timeout (${sendTimeoutMs} ms)`);

  /** Sends within `sendTimeoutMs`; past it the send is abandoned, even by a transport that ignores the abort. */
  async function sendWithTimeout(mail: ClaimedMail): Promise<void> {
    const message = `send timed out after ${sendTimeoutMs} ms`;
    await withTimeout(sendTimeoutMs, message, (signal) => deps.transport.send(mail, signal));
  }

  function warnLeaseLost(mail: ClaimedMail, outcome: "sent" | "failed"): void {
    deps.logger.warn("mail lease lost: another worker owns the mail, its state is left alone", {
      id: mail.id,
      attempt: mail.attempts,
      outcome,
    });
  }

  async function deliver(mail: ClaimedMail): Promise<void> {
    try {
      await sendWithTimeout(mail);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryAt = mail.attempts < MAX_MAIL_ATTEMPTS ? new Date(Date.now() + retryDelayMs(mail.attempts)) : null;
      deps.logger.warn("mail delivery failed", {
        id: mail.id,
        attempt: mail.attempts,
        retry: retryAt?.toISOString() ?? "gave up",
        error: message,
      });
      if (!(await markMailFailed(deps.db, mail, message, retryAt))) warnLeaseLost(mail, "failed");
      return;
    }
    if (!(await markMailSent(deps.db, mail))) warnLeaseLost(mail, "sent");
  }

  /** Once per `purgeEveryMs` across every instance (server/jobs/job-schedule.ts); a failure is logged and retried at the next poll. */
  async function purgeWhenDue(): Promise<void> {
    try {
      await runScheduledJob(deps.db, "mail purge", purgeEveryMs, async () => {
        const purged = await purgeMailsCreatedBefore(deps.db, new Date(Date.now() - retentionMs));
        if (purged.outbox + purged.devMailbox > 0) deps.logger.info("old mail purged", purged);
      });
    } catch (error) {
      deps.logger.error("mail purge failed", { error: error instanceof Error ? error.message : String(error) });
    }
  }

  async function runOnce(stopping: AbortSignal): Promise<void> {
    await purgeWhenDue();
    for (;;) {
      const due = await findDueMails(deps.db, BATCH);
      // Claimed one at a time, right before its send: the lease then covers only that send. A stop lets the
      // mail being sent finish (and be marked), and leaves the others unclaimed for the next start.
      for (const candidate of due) {
        if (stopping.aborted) return;
        const mail = await claimMail(deps.db, candidate, leaseMs);
        if (mail) await deliver(mail);
      }
      if (due.length < BATCH || stopping.aborted) return;
    }
  }

  return startPollingLoop("outbox worker", runOnce, { logger: deps.logger, pollMs });
}

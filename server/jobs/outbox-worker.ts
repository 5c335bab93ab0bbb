import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { claimDueMails, markMailFailed, markMailSent, type MailTransport } from "../modules/mail";
import type { Logger } from "../logger";

export const MAX_MAIL_ATTEMPTS = 10;
const LEASE_MS = 60_000;
const BATCH = 20;

/** Exponential backoff: 5 s, 10 s, 20 s … capped at one hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(5_000 * 2 ** (attempt - 1), 3_600_000);
}

export type OutboxWorker = { nudge(): void; drain(): Promise<void>; stop(): Promise<void> };

/** Delivers outbox mail with retries; polls, and runs at once when nudged after a mail is queued. */
export function startOutboxWorker(deps: { db: Kysely<Database>; transport: MailTransport; logger: Logger; pollMs?: number }): OutboxWorker {
  const pollMs = deps.pollMs ?? 2_000;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function runOnce(): Promise<void> {
    for (;;) {
      const mails = await claimDueMails(deps.db, BATCH, LEASE_MS);
      for (const mail of mails) {
        try {
          await deps.transport.send(mail);
          await markMailSent(deps.db, mail.id);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const retryAt = mail.attempts < MAX_MAIL_ATTEMPTS ? new Date(Date.now() + retryDelayMs(mail.attempts)) : null;
          deps.logger.warn("mail delivery failed", { id: mail.id, attempt: mail.attempts, retry: retryAt?.toISOString() ?? "gave up", error: message });
          await markMailFailed(deps.db, mail.id, message, retryAt);
        }
      }
      if (mails.length < BATCH) return;
    }
  }

  function tick(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = runOnce()
      .catch((error: unknown) => deps.logger.error("outbox worker failed", { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void tick();
        }
      });
    return running;
  }

  const timer = setInterval(() => void tick(), pollMs);
  timer.unref();
  return {
    nudge: () => void tick(),
    async drain() {
      await tick();
      while (running) await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}

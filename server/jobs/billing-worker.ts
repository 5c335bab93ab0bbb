import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { Logger } from "../logger";
import { startPollingLoop, type PollingLoop } from "./polling-loop";
import {
  applyWebhookEvent,
  findDueUsageEvents,
  findDueWebhookEvents,
  finishWebhookEvent,
  markUsageRetry,
  markUsageSent,
  purgeHandledBefore,
  type Billing,
} from "../modules/billing";

const BATCH = 50;
export const MAX_WEBHOOK_ATTEMPTS = 10;
export const MAX_USAGE_ATTEMPTS = 20;
/** How often every billed organization is re-read from the provider, to heal webhooks that never arrived. */
export const RECONCILE_EVERY_MS = 6 * 3_600_000;

/**
 * Handled webhook deliveries and sent usage are kept a month (time to look into a question about a charge),
 * then deleted, so the tables do not only grow; failed and pending rows are never purged.
 */
export const BILLING_RETENTION_MS = 30 * 24 * 3_600_000;

/** Exponential backoff: 5 s, 10 s, 20 s … capped at one hour (as the mail outbox). */
export function billingRetryDelayMs(attempt: number): number {
  return Math.min(5_000 * 2 ** (attempt - 1), 3_600_000);
}

export type BillingWorker = PollingLoop;

/**
 * Applies stored webhook deliveries in the order they arrived, sends queued usage to the provider's event
 * ingestion (retried with backoff; the idempotency key is the event's external id, so a retry after a lost
 * answer is not counted twice), and reconciles every billed organization on a schedule. Polls, and runs at
 * once when nudged.
 */
export function startBillingWorker(deps: {
  db: Kysely<Database>;
  billing: Billing;
  logger: Logger;
  pollMs?: number;
  reconcileEveryMs?: number;
}): BillingWorker {
  const pollMs = deps.pollMs ?? 2_000;
  const reconcileEveryMs = deps.reconcileEveryMs ?? RECONCILE_EVERY_MS;
  let lastReconcileAt = Date.now();

  async function applyWebhooks(stopping: AbortSignal): Promise<number> {
    const due = await findDueWebhookEvents(deps.db, BATCH);
    for (const event of due) {
      if (stopping.aborted) break;
      try {
        await finishWebhookEvent(deps.db, event.id, await applyWebhookEvent(deps, deps.billing, event.payload));
      } catch (error) {
        const attempts = event.attempts + 1;
        const message = error instanceof Error ? error.message : String(error);
        deps.logger.warn("billing webhook could not be applied", { id: event.id, type: event.type, attempt: attempts, error: message });
        await finishWebhookEvent(deps.db, event.id, {
          status: attempts < MAX_WEBHOOK_ATTEMPTS ? "pending" : "failed",
          error: message,
          attempts,
          retryAt: new Date(Date.now() + billingRetryDelayMs(attempts)),
        });
        // Later events of the same batch may depend on this one: stop here and retry in order.
        break;
      }
    }
    return due.length;
  }

  async function sendUsage(): Promise<number> {
    const due = await findDueUsageEvents(deps.db, BATCH);
    if (due.length === 0) return 0;
    const ids = due.map((usage) => usage.id);
    try {
      await deps.billing.provider().events.ingest({
        events: due.map((usage) => ({
          name: usage.event_name,
          external_customer_id: usage.organization_id,
          external_id: `${usage.organization_id}:${usage.idempotency_key}`,
          timestamp: new Date(usage.created_at).toISOString(),
          metadata: { quantity: usage.quantity },
        })),
      });
      await markUsageSent(deps.db, ids);
    } catch (error) {
      const attempts = Math.max(...due.map((usage) => usage.attempts)) + 1;
      const message = error instanceof Error ? error.message : String(error);
      deps.logger.warn("billing usage could not be sent", { count: due.length, attempt: attempts, error: message });
      await markUsageRetry(deps.db, ids, {
        error: message,
        attempts,
        retryAt: attempts < MAX_USAGE_ATTEMPTS ? new Date(Date.now() + billingRetryDelayMs(attempts)) : null,
      });
      return 0;
    }
    return due.length;
  }

  /** The periodic work: purging what is old, then re-reading every billed organization from the provider. */
  async function reconcileWhenDue(): Promise<void> {
    if (Date.now() - lastReconcileAt < reconcileEveryMs) return;
    lastReconcileAt = Date.now();
    const purged = await purgeHandledBefore(deps.db, new Date(Date.now() - BILLING_RETENTION_MS));
    const result = await deps.billing.reconcileAll();
    deps.logger.info("billing reconciliation finished", { ...result, purged });
  }

  /** A stop (`stopping`) lets the event being applied or the usage batch being sent finish, and nothing after it. */
  async function runOnce(stopping: AbortSignal): Promise<void> {
    for (;;) {
      const applied = await applyWebhooks(stopping);
      if (stopping.aborted) return;
      const sent = await sendUsage();
      if (stopping.aborted) return;
      if (applied < BATCH && sent < BATCH) break;
    }
    await reconcileWhenDue();
  }

  return startPollingLoop("billing worker", runOnce, { logger: deps.logger, pollMs });
}

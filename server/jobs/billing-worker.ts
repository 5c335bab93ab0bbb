import type { Kysely } from "kysely";
import { backoffMs } from "../../common/backoff";
import type { Database } from "../db/schema";
import type { Logger } from "../logger";
import { claimJob, rescheduleJob, runScheduledJob } from "./job-schedule";
import { startPollingLoop, type PollingLoop } from "./polling-loop";
import {
  applyWebhookEvent,
  claimUsageEvents,
  findDueUsageEvents,
  findDueWebhookEvents,
  isProviderUnavailable,
  markUsageRetry,
  markUsageSent,
  markWebhookRetry,
  purgeHandledBefore,
  type Billing,
} from "../modules/billing";

const BATCH = 50;
export const MAX_WEBHOOK_ATTEMPTS = 10;
/** Refusals of a usage batch before it is marked failed; a provider that cannot be reached is waited for without limit. */
export const MAX_USAGE_ATTEMPTS = 20;
/** How often every billed organization is re-read from the provider, to heal webhooks that never arrived. */
export const RECONCILE_EVERY_MS = 6 * 3_600_000;
/**
 * How long the instance applying webhooks may go on before another may take over; extended after each delivery,
 * so it need only outlast one (a grant event's re-read is four provider calls, 8 s each at most). It is also how
 * long webhooks wait when the instance holding it dies.
 */
export const WEBHOOK_LEASE_MS = 60_000;
export const USAGE_LEASE_MS = 60_000;

/**
 * Handled webhook deliveries and sent usage are kept a month (time to look into a question about a charge),
 * then deleted, so the tables do not only grow; failed and pending rows are never purged.
 */
export const BILLING_RETENTION_MS = 30 * 24 * 3_600_000;

/** Exponential backoff: 5 s, 10 s, 20 s … capped at one hour (as the mail outbox). */
export function billingRetryDelayMs(attempt: number): number {
  return backoffMs(attempt, { baseMs: 5_000, maxMs: 3_600_000 });
}

export type BillingWorker = PollingLoop;

/**
 * Applies stored webhook deliveries in the order they arrived, sends queued usage to the provider's event
 * ingestion (retried with backoff; the idempotency key is the event's external id, so a retry after a lost
 * answer is not counted twice), and reconciles every billed organization on a schedule. Polls, and runs at
 * once when nudged. Several instances may run it (docs/decisions/0013): one applies webhooks at a time, under
 * a lease, so arrival order holds across instances, and each delivery is applied and marked in one transaction,
 * so it is applied once even if that lease runs out; usage is claimed before it is sent; reconciliation and the
 * purge run once per period across instances.
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

  /** Applies one batch of due deliveries if this instance gets the applier's lease; answers how many it went through. */
  async function applyWebhooks(stopping: AbortSignal): Promise<number> {
    // A look first, so an idle poll writes nothing.
    if ((await findDueWebhookEvents(deps.db, 1)).length === 0) return 0;
    const lease = await claimJob(deps.db, "billing webhooks", WEBHOOK_LEASE_MS);
    if (!lease) return 0;
    let handled = 0;
    try {
      for (const event of await findDueWebhookEvents(deps.db, BATCH)) {
        if (stopping.aborted || !(await applyOne(event))) break;
        handled++;
        if (!(await rescheduleJob(deps.db, lease, new Date(Date.now() + WEBHOOK_LEASE_MS)))) break;
      }
    } finally {
      await rescheduleJob(deps.db, lease, new Date());
    }
    return handled;
  }

  /** Applies a delivery; false when it failed (recorded for a retry), so the batch stops there. */
  async function applyOne(event: { id: string; type: string; payload: string; attempts: number }): Promise<boolean> {
    try {
      const applied = await applyWebhookEvent(deps.db, deps.billing, event);
      if (applied)
        deps.logger.info("billing webhook handled", { id: event.id, type: event.type, status: applied.status });
      return true;
    } catch (error) {
      const attempts = event.attempts + 1;
      const message = error instanceof Error ? error.message : String(error);
      deps.logger.warn("billing webhook could not be applied", {
        id: event.id,
        type: event.type,
        attempt: attempts,
        error: message,
      });
      await markWebhookRetry(deps.db, event.id, {
        status: attempts < MAX_WEBHOOK_ATTEMPTS ? "pending" : "failed",
        error: message,
        attempts,
        retryAt: new Date(Date.now() + billingRetryDelayMs(attempts)),
      });
      // Later events of the same batch may depend on this one: stop here and retry in order.
      return false;
    }
  }

  async function sendUsage(): Promise<number> {
    const due = await claimUsageEvents(
      deps.db,
      (await findDueUsageEvents(deps.db, BATCH)).map((usage) => usage.id),
      new Date(Date.now() + USAGE_LEASE_MS),
    );
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
        // Usage is billed: an outage of any length only delays it (hourly retries once the backoff is capped).
        retryAt:
          attempts < MAX_USAGE_ATTEMPTS || isProviderUnavailable(error)
            ? new Date(Date.now() + billingRetryDelayMs(attempts))
            : null,
      });
      return 0;
    }
    return due.length;
  }

  /** The periodic work, by one instance per period: purging what is old, then re-reading every billed organization from the provider. */
  async function reconcileWhenDue(): Promise<void> {
    await runScheduledJob(deps.db, "billing reconciliation", reconcileEveryMs, async () => {
      const purged = await purgeHandledBefore(deps.db, new Date(Date.now() - BILLING_RETENTION_MS));
      const result = await deps.billing.reconcileAll();
      deps.logger.info("billing reconciliation finished", { ...result, purged });
    });
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

import type { UsageBody } from "../../../../common/billing.schemas";
import type { BillingContext } from "../billing.context";
import { insertUsageEvent } from "../billing.queues.repository";
import type { BillingScope } from "../billing.repository";

/** Queues a usage record for the worker to send (the outbox); a repeated idempotency key answers the first record. */
export async function recordUsage(
  deps: Pick<BillingContext, "db" | "provider" | "nudge">,
  scope: BillingScope,
  body: UsageBody,
): Promise<{ id: string; duplicate: boolean }> {
  // 503 when billing is not configured: nothing would ever send it.
  deps.provider();
  const result = await insertUsageEvent(deps.db, scope, {
    key: body.key,
    eventName: body.meter,
    quantity: body.quantity,
  });
  if (!result.duplicate) deps.nudge();
  return result;
}

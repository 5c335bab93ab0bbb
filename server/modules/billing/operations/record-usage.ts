import type { UsageBody } from "../../../../common/billing.schemas";
import { DomainError } from "../../../../common/domain-error";
import { ERROR_CODES } from "../../../../common/error-codes";
import type { BillingContext } from "../billing.context";
import { insertUsageEvent } from "../billing.queues.repository";
import type { BillingScope } from "../billing.repository";

/**
 * Queues a usage record for the worker to send (the outbox); a repeated idempotency key answers the first record.
 * A meter no provider meter counts is refused (400, the known ones in `details`): queued, it would never be counted.
 */
export async function recordUsage(
  deps: Pick<BillingContext, "db" | "meters" | "nudge">,
  scope: BillingScope,
  body: UsageBody,
): Promise<{ id: string; duplicate: boolean }> {
  const known = await deps.meters.eventNames();
  if (known && !known.includes(body.meter)) throw unknownMeter(body.meter, known);
  const result = await insertUsageEvent(deps.db, scope, {
    key: body.key,
    eventName: body.meter,
    quantity: body.quantity,
  });
  if (!result.duplicate) deps.nudge();
  return result;
}

function unknownMeter(meter: string, known: string[]): DomainError {
  const choice = known.length ? `Use one of: ${known.join(", ")}` : "The billing provider has no meters";
  return new DomainError(ERROR_CODES.VALIDATION_ERROR, `meter: no meter counts "${meter}". ${choice}.`, {
    fieldErrors: { meter: [`${choice}.`] },
    knownMeters: known,
  });
}

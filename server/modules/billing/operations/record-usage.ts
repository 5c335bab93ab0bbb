import type { UsageBody } from "../../../../common/billing.schemas";
import { DomainError } from "../../../../common/domain-error";
import { ERROR_CODES } from "../../../../common/error-codes";
import { recordAuditEvent, type AuditContext } from "../../audit";
import type { BillingContext } from "../billing.context";
import { isoText } from "../billing.projection";
import { insertUsageEvent } from "../billing.queues.repository";
import { addToUsageCount, type BillingScope } from "../billing.repository";
import { meterEventNames, metersCounting } from "../billing.usage";
import { findCurrentSubscription } from "./find-current-subscription";

/**
 * Queues a usage record for the worker to send (the outbox); a repeated idempotency key answers the first record.
 * A meter no provider meter counts is refused (400, the known ones in `details`): queued, it would never be counted.
 * The record is added to the app's running count of each subscription meter counting it, for the current period, in
 * the same transaction, so the billing page shows it at once; a repeated key adds nothing. A new record is audited
 * (`billing.usage_reported`, with whoever reported it: a person or an API key) in that transaction too.
 */
export async function recordUsage(
  deps: Pick<BillingContext, "db" | "meters" | "nudge">,
  scope: BillingScope,
  body: UsageBody,
  audit: AuditContext,
): Promise<{ id: string; duplicate: boolean }> {
  const known = await deps.meters.eventNames();
  if (known && !known.includes(body.meter)) throw unknownMeter(body.meter, known);
  const result = await deps.db.transaction().execute(async (trx) => {
    const queued = await insertUsageEvent(trx, scope, {
      key: body.key,
      eventName: body.meter,
      quantity: body.quantity,
    });
    if (queued.duplicate) return queued;
    await recordAuditEvent(trx, audit, {
      action: "billing.usage_reported",
      organization: { id: scope.organizationId },
      details: { meter: body.meter, quantity: body.quantity, key: body.key ?? null, eventId: queued.id },
    });
    const subscription = await findCurrentSubscription(trx, scope);
    const periodStart = isoText(subscription?.current_period_start);
    if (!subscription || !periodStart) return queued;
    for (const meterId of metersCounting(meterEventNames(subscription), body.meter)) {
      await addToUsageCount(trx, scope, { meterId, periodStart, quantity: body.quantity });
    }
    return queued;
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

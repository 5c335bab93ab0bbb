import { ERROR_CODES } from "../../../../common/error-codes";
import { DomainError } from "../../../../common/domain-error";
import { countSeats } from "../../organizations";
import type { BillingContext, SubscriptionChange } from "../billing.context";
import { assertSeats, priceOf } from "../billing.pricing";
import { callProvider, type models } from "../billing.provider";
import type { BillingScope } from "../billing.repository";

/** Changes a per-seat subscription's seats: within the price's bounds, never below the seats already used. */
export async function changeSeats(
  deps: Pick<BillingContext, "db" | "provider">,
  scope: BillingScope,
  subscription: models.Subscription,
  seats: number,
): Promise<SubscriptionChange> {
  if (subscription.seats == null)
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "This plan is not priced per seat.");
  const used = await countSeats(deps.db, scope);
  assertSeats(seats, used, priceOf(subscription.product));
  const updated = await callProvider("change the seats", () =>
    deps.provider().subscriptions.update(subscription.id, { seats }),
  );
  return { updated, event: { action: "billing.seats_changed", details: { from: subscription.seats, to: seats } } };
}

import type { BillingContext, SubscriptionChange } from "../billing.context";
import { callProvider, type models } from "../billing.provider";

/** Changes a per-seat subscription's seats (checked by `resolveChange`: within bounds, not below those used). */
export async function changeSeats(
  deps: Pick<BillingContext, "provider">,
  subscription: models.Subscription,
  seats: number,
): Promise<SubscriptionChange> {
  const updated = await callProvider("change the seats", () =>
    deps.provider().subscriptions.update(subscription.id, { seats }),
  );
  return { updated, event: { action: "billing.seats_changed", details: { from: subscription.seats, to: seats } } };
}

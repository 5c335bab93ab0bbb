import type { BillingContext, SubscriptionChange } from "../billing.context";
import { planNameOf } from "../billing.entitlements";
import { callProvider, type models } from "../billing.provider";
import type { ChangeTarget } from "./preview-change";

/**
 * Moves a subscription to another plan on offer, with its seat count when the plan is priced per seat. The
 * provider's plan change carries no seat count (it keeps the seats, or starts a per-seat price at its minimum), so
 * a different count is a second update, billed together with the first: the plan change's proration waits for
 * it, and after a change of interval (already invoiced) the seats are invoiced too, as the preview says.
 */
export async function changePlan(
  deps: Pick<BillingContext, "provider">,
  subscription: models.Subscription,
  target: ChangeTarget,
): Promise<SubscriptionChange> {
  const { product, price, seats } = target;
  const seatsAfterPlan = price.perSeat ? (subscription.seats ?? price.minSeats ?? 1) : null;
  const seatsFollow = seats !== seatsAfterPlan;
  const newCycle = price.interval !== subscription.recurring_interval && subscription.status !== "trialing";
  let updated = await callProvider("change the plan", () =>
    deps.provider().subscriptions.update(subscription.id, {
      product_id: product.id,
      ...(seatsFollow && !newCycle ? { proration_behavior: "prorate" as const } : {}),
    }),
  );
  if (seatsFollow && seats !== null) {
    updated = await callProvider("change the seats", () =>
      deps.provider().subscriptions.update(subscription.id, {
        seats,
        ...(newCycle ? { proration_behavior: "invoice" as const } : {}),
      }),
    );
  }
  return {
    updated,
    event: {
      action: "billing.plan_changed",
      details: {
        from: planNameOf(subscription.product),
        to: planNameOf(product),
        ...(seats === null ? {} : { seats }),
      },
    },
  };
}

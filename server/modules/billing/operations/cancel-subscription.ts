import type { SubscriptionChangeBody } from "../../../../common/billing.schemas";
import type { BillingContext, SubscriptionChange } from "../billing.context";
import { callProvider, type models } from "../billing.provider";

/** Sets a subscription to end with its current period, with the customer's reason. */
export async function cancelSubscription(
  deps: Pick<BillingContext, "provider">,
  subscription: models.Subscription,
  reason: Pick<SubscriptionChangeBody, "cancellationReason" | "cancellationComment">,
): Promise<SubscriptionChange> {
  const updated = await callProvider("cancel the subscription", () =>
    deps.provider().subscriptions.update(subscription.id, {
      cancel_at_period_end: true,
      customer_cancellation_reason: reason.cancellationReason ?? null,
      customer_cancellation_comment: reason.cancellationComment ?? null,
    }),
  );
  return {
    updated,
    event: { action: "billing.subscription_canceled", details: { reason: reason.cancellationReason ?? null } },
  };
}

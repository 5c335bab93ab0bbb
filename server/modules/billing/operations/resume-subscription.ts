import { ERROR_CODES } from "../../../../common/error-codes";
import { DomainError } from "../../../../common/domain-error";
import type { BillingContext, SubscriptionChange } from "../billing.context";
import { callProvider, type models } from "../billing.provider";

/** Takes back a cancellation at the period's end: the subscription renews again. */
export async function resumeSubscription(
  deps: Pick<BillingContext, "provider">,
  subscription: models.Subscription,
): Promise<SubscriptionChange> {
  if (!subscription.cancel_at_period_end)
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "The subscription is not set to cancel.");
  const updated = await callProvider("resume the subscription", () =>
    deps.provider().subscriptions.update(subscription.id, { cancel_at_period_end: false }),
  );
  return { updated, event: { action: "billing.subscription_resumed" } };
}

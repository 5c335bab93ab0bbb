import type { PlanPrice } from "../../../../common/billing.schemas";
import { ERROR_CODES } from "../../../../common/error-codes";
import { DomainError } from "../../../../common/domain-error";
import { getOfferedProduct } from "../billing.catalogue";
import type { BillingContext, SubscriptionChange } from "../billing.context";
import { planNameOf } from "../billing.entitlements";
import { priceOf } from "../billing.pricing";
import { callProvider, type models } from "../billing.provider";

/** Moves a subscription to another plan on offer, priced the same way (per seat or per organization). */
export async function changePlan(
  deps: Pick<BillingContext, "provider" | "catalogue">,
  subscription: models.Subscription,
  productId: string,
): Promise<SubscriptionChange> {
  const product = await getOfferedProduct(deps.catalogue, productId);
  if (product.id === subscription.product_id)
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, "The organization is already on this plan.");
  // The provider's plan change carries no seat count: moving between per-seat and flat pricing is a new subscription.
  if ((priceOf(product) as PlanPrice).perSeat !== (subscription.seats != null)) {
    const name = planNameOf(product);
    throw new DomainError(
      ERROR_CODES.VALIDATION_ERROR,
      `${name} is priced differently (per seat or per organization): cancel the current subscription, ` +
        `then subscribe to ${name} when it ends.`,
    );
  }
  const updated = await callProvider("change the plan", () =>
    deps.provider().subscriptions.update(subscription.id, { product_id: product.id }),
  );
  return {
    updated,
    event: {
      action: "billing.plan_changed",
      details: { from: planNameOf(subscription.product), to: planNameOf(product) },
    },
  };
}

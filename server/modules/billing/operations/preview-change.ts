import type { ChangePreview, PlanPrice } from "../../../../common/billing.schemas";
import { getOfferedProduct } from "../billing.catalogue";
import type { BillingContext } from "../billing.context";
import { periodAmount, priceOf, prorationAmount, providerNow } from "../billing.pricing";
import { isoText } from "../billing.projection";
import { providerDetail } from "../billing.provider";
import type { BillingScope } from "../billing.repository";
import { getChangeableSubscription } from "./find-current-subscription";

type Deps = Pick<BillingContext, "db" | "provider" | "catalogue" | "logger">;

/**
 * What a plan change would cost, before it is confirmed: the provider has no preview, so this is its formula
 * (billing.pricing.ts) applied to the stored subscription, with the merchant's proration setting.
 */
export async function previewChange(deps: Deps, scope: BillingScope, productId: string): Promise<ChangePreview> {
  const subscription = await getChangeableSubscription(deps.db, scope);
  const product = await getOfferedProduct(deps.catalogue, productId);
  const price = priceOf(product) as PlanPrice;
  const newAmount = periodAmount(price, subscription.seats);
  return {
    productId,
    currency: price.currency,
    newAmount,
    prorationAmount: prorationAmount({
      currentAmount: subscription.amount,
      newAmount,
      periodStart: subscription.current_period_start,
      periodEnd: subscription.current_period_end,
      now: providerNow(subscription),
    }),
    prorationBehavior: await prorationBehavior(deps, product.organization_id),
    currentPeriodEnd: isoText(subscription.current_period_end) as string,
  };
}

/** The merchant's proration setting (`invoice` now, or `prorate` on the next invoice); `prorate` when unreadable. */
async function prorationBehavior(
  deps: Pick<Deps, "provider" | "logger">,
  merchantId: string,
): Promise<"invoice" | "prorate"> {
  try {
    const organization = await deps.provider().organizations.get(merchantId);
    return organization.subscription_settings.proration_behavior === "invoice" ? "invoice" : "prorate";
  } catch (error) {
    const detail = providerDetail(error) ?? String(error);
    deps.logger.warn("billing: could not read the provider's proration setting; assuming prorate", { error: detail });
    return "prorate";
  }
}

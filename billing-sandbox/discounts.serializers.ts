import type { SandboxContext } from "./context";
import { serializeProductCore } from "./products.serializers";
import type { DiscountRecord } from "./records";
import type { Json } from "./shared";

/** Discount, or the `*Base` variant (no `products`) nested in subscriptions and orders. */
export function serializeDiscount(
  ctx: SandboxContext,
  discount: DiscountRecord,
  options: { withProducts: boolean } = { withProducts: true },
): Json {
  const wire: Json = {
    id: discount.id,
    created_at: discount.created_at,
    modified_at: discount.modified_at,
    name: discount.name,
    type: discount.type,
    duration: discount.duration,
    code: discount.code,
    starts_at: discount.starts_at,
    ends_at: discount.ends_at,
    max_redemptions: discount.max_redemptions,
    max_redemptions_per_customer: null,
    redemptions_count: discount.redemptions_count,
    organization_id: ctx.organization.id,
    metadata: discount.metadata,
    ...discountAmountFields(discount),
  };
  if (options.withProducts) {
    wire.products = discount.product_ids.flatMap((id) => {
      const product = ctx.store.get("product", id);
      return product ? [serializeProductCore(ctx, product)] : [];
    });
  }
  return wire;
}

function discountAmountFields(discount: DiscountRecord): Json {
  const amount =
    discount.type === "percentage"
      ? { basis_points: discount.basis_points }
      : {
          amount: discount.amount,
          currency: discount.currency,
          amounts: { [discount.currency ?? "usd"]: discount.amount },
        };
  return discount.duration === "repeating" ? { ...amount, duration_in_months: discount.duration_in_months } : amount;
}

/** CheckoutDiscount*: the slim discount a buyer sees. */
export function serializeCheckoutDiscount(discount: DiscountRecord): Json {
  return {
    id: discount.id,
    name: discount.name,
    code: discount.code,
    type: discount.type,
    duration: discount.duration,
    ...discountAmountFields(discount),
  };
}

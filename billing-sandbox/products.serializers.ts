import { serializeBenefit, serializeBenefitPublic } from "./benefits.serializers";
import type { SandboxContext } from "./context";
import type { BenefitRecord, CustomFieldRecord, PriceRecord, ProductRecord } from "./records";
import { requireRecord, type Json } from "./shared";

/**
 * Records → the provider's wire objects (OpenAPI 2026-10 component schemas), here and in every other
 * `*.serializers.ts`. Each function names the schema it produces; the integration tests validate every one of them.
 */

/** ProductPrice (fixed | custom | seat_based | metered_unit). */
export function serializePrice(ctx: SandboxContext, price: PriceRecord): Json {
  const base = {
    id: price.id,
    created_at: price.created_at,
    modified_at: price.modified_at,
    source: price.source,
    amount_type: price.amount_type,
    price_currency: price.price_currency,
    tax_behavior: price.tax_behavior,
    is_archived: price.is_archived,
    product_id: price.product_id,
  };
  switch (price.amount_type) {
    case "fixed":
      return { ...base, price_amount: price.price_amount ?? 0 };
    case "custom":
      return {
        ...base,
        minimum_amount: price.minimum_amount ?? 0,
        maximum_amount: price.maximum_amount ?? null,
        preset_amount: price.preset_amount ?? null,
      };
    case "seat_based":
      return { ...base, seat_tiers: price.seat_tiers };
    case "metered_unit": {
      const meter = requireRecord(ctx.store, "meter", price.meter_id ?? "");
      return {
        ...base,
        unit_amount: price.unit_amount,
        cap_amount: price.cap_amount ?? null,
        meter_id: meter.id,
        meter: {
          id: meter.id,
          name: meter.name,
          unit: meter.unit,
          custom_label: meter.custom_label,
          custom_multiplier: meter.custom_multiplier,
        },
      };
    }
  }
}

export function serializeCustomField(ctx: SandboxContext, field: CustomFieldRecord): Json {
  return { ...field, organization_id: ctx.organization.id };
}

function benefitsOf(ctx: SandboxContext, product: ProductRecord): BenefitRecord[] {
  return product.benefit_ids
    .map((id) => ctx.store.get("benefit", id))
    .filter((benefit): benefit is BenefitRecord => Boolean(benefit && !benefit.is_deleted));
}

/** The product fields every product-shaped schema shares (DiscountProduct, OrderProduct). */
export function serializeProductCore(ctx: SandboxContext, product: ProductRecord): Json {
  return {
    id: product.id,
    created_at: product.created_at,
    modified_at: product.modified_at,
    trial_interval: product.trial_interval,
    trial_interval_count: product.trial_interval_count,
    name: product.name,
    description: product.description,
    visibility: product.visibility,
    recurring_interval: product.recurring_interval,
    recurring_interval_count: product.recurring_interval_count,
    meter_interval: null,
    meter_interval_count: null,
    is_recurring: product.recurring_interval !== null,
    is_archived: product.is_archived,
    organization_id: ctx.organization.id,
    metadata: product.metadata,
  };
}

export const activePrices = (product: ProductRecord) => product.prices.filter((price) => !price.is_archived);

/** Product. */
export function serializeProduct(ctx: SandboxContext, product: ProductRecord): Json {
  return {
    ...serializeProductCore(ctx, product),
    prices: activePrices(product).map((price) => serializePrice(ctx, price)),
    benefits: benefitsOf(ctx, product).map((benefit) => serializeBenefit(ctx, benefit)),
    medias: [],
    attached_custom_fields: product.attached_custom_fields.flatMap((attached) => {
      const field = ctx.store.get("custom_field", attached.custom_field_id);
      return field ? [{ ...attached, custom_field: serializeCustomField(ctx, field) }] : [];
    }),
  };
}

/** CheckoutProduct, and with `organization` the portal's CustomerSubscriptionProduct / CustomerOrderProduct. */
export function serializePublicProduct(ctx: SandboxContext, product: ProductRecord): Json {
  const { metadata: _metadata, ...core } = serializeProductCore(ctx, product);
  return {
    ...core,
    prices: activePrices(product).map((price) => serializePrice(ctx, price)),
    benefits: benefitsOf(ctx, product).map((benefit) => serializeBenefitPublic(ctx, benefit)),
    medias: [],
  };
}

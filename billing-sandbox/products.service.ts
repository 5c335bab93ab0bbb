import type { z } from "zod";
import { validationError } from "./api-errors";
import type { SandboxContext } from "./context";
import { serializeProduct } from "./products.serializers";
import type { AttachedCustomFieldRecord, PriceRecord, ProductRecord } from "./records";
import type { customFieldCreateSchema, PriceCreateInput, productCreateSchema } from "./schemas";
import { findRecord, newId } from "./shared";

/** Products with their prices, attached benefits and custom fields; custom fields themselves. */

export const findProduct = (ctx: SandboxContext, id: string): ProductRecord => findRecord(ctx.store, "product", id);

export function buildPrice(ctx: SandboxContext, productId: string, input: PriceCreateInput): PriceRecord {
  const base = {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    source: "catalog" as const,
    price_currency: input.price_currency,
    tax_behavior: null,
    is_archived: false,
    product_id: productId,
  };
  switch (input.amount_type) {
    case "fixed":
      return { ...base, amount_type: "fixed", price_amount: input.price_amount };
    case "free":
      return { ...base, amount_type: "fixed", price_amount: 0 };
    case "custom":
      return {
        ...base,
        amount_type: "custom",
        minimum_amount: input.minimum_amount ?? 50,
        maximum_amount: input.maximum_amount ?? null,
        preset_amount: input.preset_amount ?? null,
      };
    case "metered_unit":
      if (!ctx.store.get("meter", input.meter_id))
        throw validationError(["body", "prices", "meter_id"], "Meter does not exist.");
      return {
        ...base,
        amount_type: "metered_unit",
        meter_id: input.meter_id,
        unit_amount: String(input.unit_amount),
        cap_amount: input.cap_amount ?? null,
      };
    case "seat_based":
      return {
        ...base,
        amount_type: "seat_based",
        seat_tiers: {
          tiers: input.seat_tiers.tiers.map((tier) => ({
            min_seats: tier.min_seats,
            max_seats: tier.max_seats ?? null,
            price_per_seat: tier.price_per_seat,
          })),
          minimum_seats: input.seat_tiers.minimum_seats ?? 1,
          maximum_seats: input.seat_tiers.maximum_seats ?? null,
        },
      };
  }
}

export function attachFields(
  ctx: SandboxContext,
  fields: { custom_field_id: string; required: boolean }[],
): AttachedCustomFieldRecord[] {
  return fields.map((field, order) => {
    if (!ctx.store.get("custom_field", field.custom_field_id))
      throw validationError(
        ["body", "attached_custom_fields", order, "custom_field_id"],
        "Custom field does not exist.",
      );
    return { custom_field_id: field.custom_field_id, required: field.required, order };
  });
}

export function createProduct(ctx: SandboxContext, input: z.infer<typeof productCreateSchema>): ProductRecord {
  const id = newId();
  const product = ctx.store.put("product", {
    id,
    created_at: ctx.clock.iso(),
    modified_at: null,
    name: input.name,
    description: input.description ?? null,
    visibility: input.visibility,
    recurring_interval: input.recurring_interval ?? null,
    recurring_interval_count: input.recurring_interval ? (input.recurring_interval_count ?? 1) : null,
    trial_interval: input.trial_interval ?? null,
    trial_interval_count: input.trial_interval ? (input.trial_interval_count ?? 1) : null,
    is_archived: false,
    metadata: input.metadata,
    prices: input.prices.map((price) => buildPrice(ctx, id, price)),
    benefit_ids: [],
    attached_custom_fields: attachFields(ctx, input.attached_custom_fields),
  });
  ctx.webhooks.emit("product.created", serializeProduct(ctx, product));
  return product;
}

export function setProductBenefits(ctx: SandboxContext, product: ProductRecord, benefitIds: string[]): ProductRecord {
  benefitIds.forEach((benefitId, index) => {
    if (!ctx.store.get("benefit", benefitId))
      throw validationError(["body", "benefits", index], "Benefit does not exist.");
  });
  const updated = ctx.store.put("product", { ...product, benefit_ids: benefitIds, modified_at: ctx.clock.iso() });
  ctx.webhooks.emit("product.updated", serializeProduct(ctx, updated));
  return updated;
}

export function createCustomField(ctx: SandboxContext, input: z.infer<typeof customFieldCreateSchema>) {
  if (ctx.store.list("custom_field", (field) => field.slug === input.slug).length > 0)
    throw validationError(["body", "slug"], "A custom field with this slug already exists.");
  if (input.type === "select" && !Array.isArray(input.properties.options))
    throw validationError(["body", "properties", "options"], "Field required");
  return ctx.store.put("custom_field", { id: newId(), created_at: ctx.clock.iso(), modified_at: null, ...input });
}

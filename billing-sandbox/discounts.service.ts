import type { z } from "zod";
import { validationError } from "./api-errors";
import type { SandboxContext } from "./context";
import { serializeDiscount } from "./discounts.serializers";
import type { DiscountRecord } from "./records";
import type { discountCreateSchema } from "./schemas";
import { findRecord, newId } from "./shared";

/** Discounts: fixed or percentage; once, forever or repeating; codes, dates and redemption limits. */

/** Dates are stored in one ISO form so they compare as strings against the sandbox clock. */
export const toIso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

export const findDiscount = (ctx: SandboxContext, id: string): DiscountRecord => findRecord(ctx.store, "discount", id);

export function createDiscount(ctx: SandboxContext, input: z.infer<typeof discountCreateSchema>): DiscountRecord {
  if (input.duration === "repeating" && !input.duration_in_months)
    throw validationError(["body", "duration_in_months"], "Field required");
  if (input.code && findDiscountByCode(ctx, input.code))
    throw validationError(["body", "code"], "Discount with this code already exists.");
  const discount = ctx.store.put("discount", {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    name: input.name,
    type: input.type,
    ...(input.type === "percentage"
      ? { basis_points: input.basis_points }
      : { amount: input.amount, currency: input.currency }),
    duration: input.duration,
    ...(input.duration === "repeating" ? { duration_in_months: input.duration_in_months ?? 1 } : {}),
    code: input.code ?? null,
    starts_at: toIso(input.starts_at),
    ends_at: toIso(input.ends_at),
    max_redemptions: input.max_redemptions ?? null,
    redemptions_count: 0,
    metadata: input.metadata,
    product_ids: input.products ?? [],
  });
  ctx.webhooks.emit("discount.created", serializeDiscount(ctx, discount));
  return discount;
}

/** Whether a discount may be redeemed now on this product: dates, redemption limit and product restriction. */
export function assertDiscountRedeemable(
  ctx: SandboxContext,
  discount: DiscountRecord,
  productId: string,
  loc: string[],
): void {
  const now = ctx.clock.iso();
  const isUsable =
    (!discount.starts_at || discount.starts_at <= now) &&
    (!discount.ends_at || discount.ends_at > now) &&
    (discount.max_redemptions === null || discount.redemptions_count < discount.max_redemptions) &&
    (discount.product_ids.length === 0 || discount.product_ids.includes(productId));
  if (!isUsable) throw validationError(loc, "Discount is not applicable or has expired.");
}

export function findDiscountByCode(ctx: SandboxContext, code: string): DiscountRecord | undefined {
  return ctx.store.list(
    "discount",
    (discount) => discount.code !== null && discount.code.toLowerCase() === code.toLowerCase(),
  )[0];
}

import type { z } from "zod";
import { notFound, readJson, validationError } from "./api-errors";
import { findDiscountByCode } from "./billing";
import { newId, type SandboxContext } from "./context";
import { newRouter, paginate } from "./http";
import type { DiscountRecord } from "./records";
import { discountCreateSchema, discountUpdateSchema } from "./schemas";
import { serializeDiscount } from "./serializers";

/** Discounts: fixed or percentage; once, forever or repeating; codes, dates and redemption limits. */

/** Dates are stored in one ISO form so they compare as strings against the sandbox clock. */
const toIso = (value: string | null | undefined) => (value ? new Date(value).toISOString() : null);

function findDiscount(ctx: SandboxContext, id: string): DiscountRecord {
  const discount = ctx.store.get("discount", id);
  if (!discount) throw notFound();
  return discount;
}

export function createDiscount(ctx: SandboxContext, input: z.infer<typeof discountCreateSchema>): DiscountRecord {
  if (input.duration === "repeating" && !input.duration_in_months) throw validationError(["body", "duration_in_months"], "Field required");
  if (input.code && findDiscountByCode(ctx, input.code)) throw validationError(["body", "code"], "Discount with this code already exists.");
  const discount = ctx.store.put("discount", {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    name: input.name,
    type: input.type,
    ...(input.type === "percentage" ? { basis_points: input.basis_points } : { amount: input.amount, currency: input.currency }),
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

export function discountRoutes(ctx: SandboxContext) {
  const router = newRouter();
  router.get("/", (c) => c.json(paginate(c, ctx.store.list("discount"), (discount) => serializeDiscount(ctx, discount))));
  router.post("/", async (c) => {
    const input = await readJson(c, discountCreateSchema);
    return c.json(serializeDiscount(ctx, createDiscount(ctx, input)), 201);
  });
  router.get("/:id", (c) => c.json(serializeDiscount(ctx, findDiscount(ctx, c.req.param("id")))));
  router.patch("/:id", async (c) => {
    const discount = findDiscount(ctx, c.req.param("id"));
    const input = await readJson(c, discountUpdateSchema);
    const updated = ctx.store.put("discount", {
      ...discount,
      name: input.name ?? discount.name,
      code: input.code === undefined ? discount.code : input.code,
      starts_at: input.starts_at === undefined ? discount.starts_at : toIso(input.starts_at),
      ends_at: input.ends_at === undefined ? discount.ends_at : toIso(input.ends_at),
      max_redemptions: input.max_redemptions === undefined ? discount.max_redemptions : input.max_redemptions,
      metadata: input.metadata ?? discount.metadata,
      modified_at: ctx.clock.iso(),
    });
    ctx.webhooks.emit("discount.updated", serializeDiscount(ctx, updated));
    return c.json(serializeDiscount(ctx, updated));
  });
  router.delete("/:id", (c) => {
    const discount = findDiscount(ctx, c.req.param("id"));
    ctx.webhooks.emit("discount.deleted", serializeDiscount(ctx, discount));
    // The provider soft-deletes; the sandbox forgets the code so it can be reused.
    ctx.store.put("discount", { ...discount, code: null, ends_at: ctx.clock.iso(), modified_at: ctx.clock.iso() });
    return c.body(null, 204);
  });
  return router;
}

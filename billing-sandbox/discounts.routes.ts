import { readJson } from "./api-errors";
import type { SandboxContext } from "./context";
import { serializeDiscount } from "./discounts.serializers";
import { createDiscount, findDiscount, toIso } from "./discounts.service";
import { newRouter, paginate } from "./http";
import { discountCreateSchema, discountUpdateSchema } from "./schemas";

/** Discounts: fixed or percentage; once, forever or repeating; codes, dates and redemption limits. */

export function discountRoutes(ctx: SandboxContext) {
  const router = newRouter();
  router.get("/", (c) =>
    c.json(paginate(c, ctx.store.list("discount"), (discount) => serializeDiscount(ctx, discount))),
  );
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

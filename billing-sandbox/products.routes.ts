import { z } from "zod";
import { notFound, readJson } from "./api-errors";
import type { SandboxContext } from "./context";
import { booleanQuery, metadataQuery, matchesMetadata, newRouter, paginate, queryList } from "./http";
import { serializeCustomField, serializeProduct } from "./products.serializers";
import {
  attachFields,
  buildPrice,
  createCustomField,
  createProduct,
  findProduct,
  setProductBenefits,
} from "./products.service";
import type { ProductRecord } from "./records";
import { customFieldCreateSchema, productCreateSchema, productUpdateSchema } from "./schemas";

/** Products with their prices, attached benefits and custom fields; custom fields themselves. */

export function productRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/", (c) => {
    const ids = queryList(c, "id");
    const isArchived = booleanQuery(c, "is_archived");
    const isRecurring = booleanQuery(c, "is_recurring");
    const query = c.req.query("query")?.toLowerCase();
    const metadata = metadataQuery(c);
    const products = ctx.store.list(
      "product",
      (product) =>
        (!ids || ids.includes(product.id)) &&
        (isArchived === undefined || product.is_archived === isArchived) &&
        (isRecurring === undefined || (product.recurring_interval !== null) === isRecurring) &&
        (!query || product.name.toLowerCase().includes(query)) &&
        matchesMetadata(product.metadata, metadata),
    );
    return c.json(paginate(c, products, (product) => serializeProduct(ctx, product)));
  });

  router.post("/", async (c) => {
    const input = await readJson(c, productCreateSchema);
    return c.json(
      serializeProduct(
        ctx,
        ctx.store.transaction(() => createProduct(ctx, input)),
      ),
      201,
    );
  });

  router.get("/:id", (c) => c.json(serializeProduct(ctx, findProduct(ctx, c.req.param("id")))));

  router.patch("/:id", async (c) => {
    const product = findProduct(ctx, c.req.param("id"));
    const input = await readJson(c, productUpdateSchema);
    const updated = ctx.store.transaction(() => {
      // A price listed by id is kept, a new price object is added, and a price left out is archived.
      const prices = input.prices
        ? [
            ...product.prices.map((price) => ({
              ...price,
              is_archived: price.is_archived || !input.prices?.some((entry) => "id" in entry && entry.id === price.id),
            })),
            ...input.prices.flatMap((entry) => ("amount_type" in entry ? [buildPrice(ctx, product.id, entry)] : [])),
          ]
        : product.prices;
      const next: ProductRecord = {
        ...product,
        name: input.name ?? product.name,
        description: input.description === undefined ? product.description : input.description,
        visibility: input.visibility ?? product.visibility,
        recurring_interval:
          input.recurring_interval === undefined ? product.recurring_interval : input.recurring_interval,
        recurring_interval_count:
          input.recurring_interval_count === undefined
            ? product.recurring_interval_count
            : input.recurring_interval_count,
        trial_interval: input.trial_interval === undefined ? product.trial_interval : input.trial_interval,
        trial_interval_count:
          input.trial_interval_count === undefined ? product.trial_interval_count : input.trial_interval_count,
        is_archived: input.is_archived ?? product.is_archived,
        metadata: input.metadata ?? product.metadata,
        prices,
        attached_custom_fields: input.attached_custom_fields
          ? attachFields(ctx, input.attached_custom_fields)
          : product.attached_custom_fields,
        modified_at: ctx.clock.iso(),
      };
      ctx.store.put("product", next);
      ctx.webhooks.emit("product.updated", serializeProduct(ctx, next));
      return next;
    });
    return c.json(serializeProduct(ctx, updated));
  });

  router.post("/:id/benefits", async (c) => {
    const product = findProduct(ctx, c.req.param("id"));
    const input = await readJson(c, z.object({ benefits: z.array(z.uuid()) }));
    return c.json(
      serializeProduct(
        ctx,
        ctx.store.transaction(() => setProductBenefits(ctx, product, input.benefits)),
      ),
    );
  });

  return router;
}

export function customFieldRoutes(ctx: SandboxContext) {
  const router = newRouter();
  router.get("/", (c) =>
    c.json(paginate(c, ctx.store.list("custom_field"), (field) => serializeCustomField(ctx, field))),
  );
  router.post("/", async (c) => {
    const input = await readJson(c, customFieldCreateSchema);
    return c.json(serializeCustomField(ctx, createCustomField(ctx, input)), 201);
  });
  router.get("/:id", (c) => {
    const field = ctx.store.get("custom_field", c.req.param("id"));
    if (!field) throw notFound();
    return c.json(serializeCustomField(ctx, field));
  });
  return router;
}

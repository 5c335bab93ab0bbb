import { notFound, readJson, validationError } from "./api-errors";
import { newId, type SandboxContext } from "./context";
import { booleanQuery, metadataQuery, matchesMetadata, newRouter, paginate, queryList } from "./http";
import type { AttachedCustomFieldRecord, PriceRecord, ProductRecord } from "./records";
import { customFieldCreateSchema, productCreateSchema, productUpdateSchema, type PriceCreateInput } from "./schemas";
import { findProduct, serializeCustomField, serializeProduct } from "./serializers";
import { z } from "zod";

/** Products with their prices, attached benefits and custom fields; custom fields themselves. */

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
      if (!ctx.store.get("meter", input.meter_id)) throw validationError(["body", "prices", "meter_id"], "Meter does not exist.");
      return { ...base, amount_type: "metered_unit", meter_id: input.meter_id, unit_amount: String(input.unit_amount), cap_amount: input.cap_amount ?? null };
    case "seat_based":
      return {
        ...base,
        amount_type: "seat_based",
        seat_tiers: {
          tiers: input.seat_tiers.tiers.map((tier) => ({ min_seats: tier.min_seats, max_seats: tier.max_seats ?? null, price_per_seat: tier.price_per_seat })),
          minimum_seats: input.seat_tiers.minimum_seats ?? 1,
          maximum_seats: input.seat_tiers.maximum_seats ?? null,
        },
      };
  }
}

function attachFields(ctx: SandboxContext, fields: { custom_field_id: string; required: boolean }[]): AttachedCustomFieldRecord[] {
  return fields.map((field, order) => {
    if (!ctx.store.get("custom_field", field.custom_field_id))
      throw validationError(["body", "attached_custom_fields", order, "custom_field_id"], "Custom field does not exist.");
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
    if (!ctx.store.get("benefit", benefitId)) throw validationError(["body", "benefits", index], "Benefit does not exist.");
  });
  const updated = ctx.store.put("product", { ...product, benefit_ids: benefitIds, modified_at: ctx.clock.iso() });
  ctx.webhooks.emit("product.updated", serializeProduct(ctx, updated));
  return updated;
}

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
        recurring_interval: input.recurring_interval === undefined ? product.recurring_interval : input.recurring_interval,
        recurring_interval_count: input.recurring_interval_count === undefined ? product.recurring_interval_count : input.recurring_interval_count,
        trial_interval: input.trial_interval === undefined ? product.trial_interval : input.trial_interval,
        trial_interval_count: input.trial_interval_count === undefined ? product.trial_interval_count : input.trial_interval_count,
        is_archived: input.is_archived ?? product.is_archived,
        metadata: input.metadata ?? product.metadata,
        prices,
        attached_custom_fields: input.attached_custom_fields ? attachFields(ctx, input.attached_custom_fields) : product.attached_custom_fields,
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

export function createCustomField(ctx: SandboxContext, input: z.infer<typeof customFieldCreateSchema>) {
  if (ctx.store.list("custom_field", (field) => field.slug === input.slug).length > 0)
    throw validationError(["body", "slug"], "A custom field with this slug already exists.");
  if (input.type === "select" && !Array.isArray(input.properties.options)) throw validationError(["body", "properties", "options"], "Field required");
  return ctx.store.put("custom_field", { id: newId(), created_at: ctx.clock.iso(), modified_at: null, ...input });
}

export function customFieldRoutes(ctx: SandboxContext) {
  const router = newRouter();
  router.get("/", (c) => c.json(paginate(c, ctx.store.list("custom_field"), (field) => serializeCustomField(ctx, field))));
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

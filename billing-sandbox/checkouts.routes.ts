import type { z } from "zod";
import { notFound, readJson, validationError } from "./api-errors";
import {
  assertCheckoutPayable,
  expireIfDue,
  assertDiscountRedeemable,
  CHECKOUT_TTL_MS,
  confirmCheckout,
  findCustomerByExternalId,
  findDiscountByCode,
} from "./billing";
import { newId, newToken, type SandboxContext } from "./context";
import { newRouter, paginate, queryList } from "./http";
import type { CheckoutRecord, PriceRecord, ProductRecord } from "./records";
import { checkoutClientUpdateSchema, checkoutConfirmSchema, checkoutCreateSchema, checkoutUpdateSchema } from "./schemas";
import { findProduct, serializeCheckout, serializeCheckoutPublic } from "./serializers";

/**
 * Checkout sessions: the organization's API (`/v1/checkouts/`) and the client API the hosted page
 * uses (`/v1/checkouts/client/{client_secret}`), which needs no token: the secret is the credential.
 */

/** The price a checkout charges for a product: its first static price, else its first price. */
function defaultPrice(product: ProductRecord): PriceRecord | undefined {
  const prices = product.prices.filter((price) => !price.is_archived);
  return prices.find((price) => price.amount_type !== "metered_unit") ?? prices[0];
}

/** A custom amount must sit within the price's bounds, and seats within a seat-based price's limits. */
function assertPriceInputs(price: PriceRecord, input: { amount?: number | null; seats?: number | null }): void {
  const { amount, seats } = input;
  if (
    price.amount_type === "custom" &&
    amount != null &&
    (amount < (price.minimum_amount ?? 0) || (price.maximum_amount != null && amount > price.maximum_amount))
  ) {
    throw validationError(["body", "amount"], "Amount is outside the price's minimum and maximum.");
  }
  const tiers = price.seat_tiers;
  if (
    price.amount_type === "seat_based" &&
    tiers &&
    seats != null &&
    (seats < tiers.minimum_seats || (tiers.maximum_seats !== null && seats > tiers.maximum_seats))
  ) {
    throw validationError(["body", "seats"], `Seats must be between ${tiers.minimum_seats} and ${tiers.maximum_seats ?? "unlimited"}.`);
  }
}

export function createCheckout(ctx: SandboxContext, input: z.infer<typeof checkoutCreateSchema>): CheckoutRecord {
  const products = input.products.map((id, index) => {
    const product = ctx.store.get("product", id);
    if (!product || product.is_archived) throw validationError(["body", "products", index], "Product does not exist or is archived.");
    return product;
  });
  const product = products[0] as ProductRecord;
  const price = defaultPrice(product);
  if (!price) throw validationError(["body", "products", 0], "Product has no price.");
  assertPriceInputs(price, input);
  const customer = input.customer_id
    ? ctx.store.get("customer", input.customer_id)
    : input.external_customer_id
      ? findCustomerByExternalId(ctx, input.external_customer_id)
      : undefined;
  if (input.customer_id && !customer) throw validationError(["body", "customer_id"], "Customer does not exist.");
  if (input.discount_id) {
    const discount = ctx.store.get("discount", input.discount_id);
    if (!discount) throw validationError(["body", "discount_id"], "Discount does not exist.");
    assertDiscountRedeemable(ctx, discount, product.id, ["body", "discount_id"]);
  }
  const now = ctx.clock.now();
  const checkout = ctx.store.put("checkout", {
    id: newId(),
    created_at: now.toISOString(),
    modified_at: null,
    status: "open",
    client_secret: newToken("polar_c_"),
    expires_at: new Date(now.getTime() + CHECKOUT_TTL_MS).toISOString(),
    success_url: input.success_url ?? null,
    return_url: input.return_url ?? null,
    embed_origin: input.embed_origin ?? null,
    product_ids: products.map((item) => item.id),
    product_id: product.id,
    product_price_id: price.id,
    custom_amount: price.amount_type === "custom" ? (input.amount ?? null) : null,
    seats: price.amount_type === "seat_based" ? (input.seats ?? price.seat_tiers?.minimum_seats ?? 1) : null,
    discount_id: input.discount_id ?? null,
    allow_discount_codes: input.allow_discount_codes,
    require_billing_address: input.require_billing_address,
    allow_trial: input.allow_trial,
    trial_interval: input.trial_interval ?? null,
    trial_interval_count: input.trial_interval_count ?? null,
    customer_id: customer?.id ?? null,
    external_customer_id: input.external_customer_id ?? customer?.external_id ?? null,
    customer_name: input.customer_name ?? customer?.name ?? null,
    customer_email: input.customer_email ?? customer?.email ?? null,
    customer_billing_name: input.customer_billing_name ?? null,
    customer_billing_address: input.customer_billing_address ?? customer?.billing_address ?? null,
    customer_tax_id: input.customer_tax_id ?? null,
    is_business_customer: input.is_business_customer,
    metadata: input.metadata,
    customer_metadata: input.customer_metadata,
    custom_field_data: input.custom_field_data,
    subscription_id: null,
    customer_session_token: null,
  });
  ctx.webhooks.emit("checkout.created", serializeCheckout(ctx, checkout));
  return checkout;
}

type CheckoutChanges = z.infer<typeof checkoutUpdateSchema>;

/** Applies buyer (or organization) changes to an open checkout; a discount code is checked on the spot. */
export function updateCheckout(ctx: SandboxContext, checkout: CheckoutRecord, input: CheckoutChanges): CheckoutRecord {
  assertCheckoutPayable(ctx, checkout);
  let { product_id: productId, product_price_id: priceId } = checkout;
  if (input.product_id && input.product_id !== productId) {
    if (!checkout.product_ids.includes(input.product_id)) throw validationError(["body", "product_id"], "Product is not available in this checkout.");
    productId = input.product_id;
    priceId = defaultPrice(findProduct(ctx, productId))?.id ?? priceId;
  }
  if (input.product_price_id) {
    if (!findProduct(ctx, productId).prices.some((price) => price.id === input.product_price_id && !price.is_archived))
      throw validationError(["body", "product_price_id"], "Price does not belong to the product.");
    priceId = input.product_price_id;
  }
  const price = findProduct(ctx, productId).prices.find((candidate) => candidate.id === priceId);
  if (price) assertPriceInputs(price, input);

  let discountId = input.discount_id === undefined ? checkout.discount_id : input.discount_id;
  if (input.discount_code !== undefined) {
    if (!input.discount_code) discountId = null;
    else {
      if (!checkout.allow_discount_codes) throw validationError(["body", "discount_code"], "Discount codes are not allowed on this checkout.");
      const discount = findDiscountByCode(ctx, input.discount_code);
      if (!discount) throw validationError(["body", "discount_code"], "Discount code is invalid.");
      discountId = discount.id;
    }
  }
  if (discountId) {
    const discount = ctx.store.get("discount", discountId);
    if (!discount) throw validationError(["body", "discount_id"], "Discount does not exist.");
    assertDiscountRedeemable(ctx, discount, productId, ["body", input.discount_code ? "discount_code" : "discount_id"]);
  }
  const keep = <T>(value: T | undefined, current: T) => (value === undefined ? current : value);
  const updated = ctx.store.put("checkout", {
    ...checkout,
    product_id: productId,
    product_price_id: priceId,
    custom_amount: keep(input.amount, checkout.custom_amount),
    seats: keep(input.seats, checkout.seats),
    discount_id: discountId,
    customer_name: keep(input.customer_name, checkout.customer_name),
    customer_email: keep(input.customer_email, checkout.customer_email),
    customer_billing_name: keep(input.customer_billing_name, checkout.customer_billing_name),
    customer_billing_address: keep(input.customer_billing_address, checkout.customer_billing_address),
    customer_tax_id: keep(input.customer_tax_id, checkout.customer_tax_id),
    is_business_customer: input.is_business_customer ?? checkout.is_business_customer,
    custom_field_data: input.custom_field_data ?? checkout.custom_field_data,
    metadata: input.metadata ?? checkout.metadata,
    customer_metadata: input.customer_metadata ?? checkout.customer_metadata,
    modified_at: ctx.clock.iso(),
  });
  ctx.webhooks.emit("checkout.updated", serializeCheckout(ctx, updated));
  return updated;
}

function byId(ctx: SandboxContext, id: string): CheckoutRecord {
  const checkout = ctx.store.get("checkout", id);
  if (!checkout) throw notFound();
  return checkout;
}

export function findCheckoutBySecret(ctx: SandboxContext, clientSecret: string): CheckoutRecord {
  const checkout = ctx.store.list("checkout", (candidate) => candidate.client_secret === clientSecret)[0];
  if (!checkout) throw notFound();
  return checkout;
}

/** Confirm may carry last-minute field changes (CheckoutConfirmStripe extends CheckoutUpdatePublic). */
const hasChanges = (input: z.infer<typeof checkoutClientUpdateSchema>) => Object.values(input).some((value) => value !== undefined);

export function checkoutRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/", (c) => {
    const productIds = queryList(c, "product_id");
    const customerIds = queryList(c, "customer_id");
    const externalIds = queryList(c, "external_customer_id");
    const statuses = queryList(c, "status");
    const checkouts = ctx.store.list(
      "checkout",
      (checkout) =>
        (!productIds || productIds.includes(checkout.product_id)) &&
        (!customerIds || (checkout.customer_id !== null && customerIds.includes(checkout.customer_id))) &&
        (!externalIds || (checkout.external_customer_id !== null && externalIds.includes(checkout.external_customer_id))) &&
        (!statuses || statuses.includes(checkout.status)),
    );
    return c.json(paginate(c, checkouts, (checkout) => serializeCheckout(ctx, checkout)));
  });

  router.post("/", async (c) => {
    const input = await readJson(c, checkoutCreateSchema);
    return c.json(
      serializeCheckout(
        ctx,
        ctx.store.transaction(() => createCheckout(ctx, input)),
      ),
      201,
    );
  });

  router.get("/:id", (c) => c.json(serializeCheckout(ctx, byId(ctx, c.req.param("id")))));

  router.patch("/:id", async (c) => {
    const checkout = byId(ctx, c.req.param("id"));
    const input = await readJson(c, checkoutUpdateSchema);
    return c.json(
      serializeCheckout(
        ctx,
        ctx.store.transaction(() => updateCheckout(ctx, checkout, input)),
      ),
    );
  });

  return router;
}

export function checkoutClientRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/:secret", (c) => c.json(serializeCheckoutPublic(ctx, expireIfDue(ctx, findCheckoutBySecret(ctx, c.req.param("secret"))))));

  router.patch("/:secret", async (c) => {
    const checkout = findCheckoutBySecret(ctx, c.req.param("secret"));
    const input = await readJson(c, checkoutClientUpdateSchema);
    return c.json(
      serializeCheckoutPublic(
        ctx,
        ctx.store.transaction(() => updateCheckout(ctx, checkout, input)),
      ),
    );
  });

  router.post("/:secret/confirm", async (c) => {
    const checkout = findCheckoutBySecret(ctx, c.req.param("secret"));
    const { confirmation_token_id: token, ...changes } = await readJson(c, checkoutConfirmSchema);
    return c.json(confirmCheckout(ctx, checkout.id, token, hasChanges(changes) ? (current) => updateCheckout(ctx, current, changes) : undefined));
  });

  return router;
}

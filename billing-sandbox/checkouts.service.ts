import type { z } from "zod";
import { ApiError, forbidden, notFound, validationError } from "./api-errors";
import { grantBenefits } from "./benefits.service";
import { checkoutAmounts, serializeCheckout, serializeCheckoutPublic } from "./checkouts.serializers";
import type { SandboxContext } from "./context";
import { serializeCustomer } from "./customers.serializers";
import {
  adoptCheckoutEmail,
  createCustomerSession,
  emitCustomerStateChanged,
  findCustomerByEmail,
  findCustomerByExternalId,
  insertCustomer,
  saveCard,
} from "./customers.service";
import { assertDiscountRedeemable, findDiscountByCode } from "./discounts.service";
import { serializeOrder } from "./orders.serializers";
import { createOrder, itemFor, markOrderPaid } from "./orders.service";
import { findProduct } from "./products.service";
import type {
  CheckoutRecord,
  CustomerRecord,
  OrderItemRecord,
  PriceRecord,
  ProductRecord,
  SubscriptionRecord,
} from "./records";
import type { checkoutCreateSchema, checkoutUpdateSchema } from "./schemas";
import {
  ACTION_REQUIRED_TOKEN,
  DECLINED_TOKEN,
  findRecord,
  newId,
  newToken,
  PAYING_TOKEN,
  requireRecord,
  TEST_CARDS,
} from "./shared";
import { serializeSubscription } from "./subscriptions.serializers";
import { createSubscription } from "./subscriptions.service";

/**
 * Checkout sessions: created open, updated by the buyer or the organization, expired after a day, and
 * confirmed with a test card, which fulfils them (customer, subscription, order, benefit grants) or, when the
 * card needs the customer's confirmation, leaves the payment pending until they confirm or it expires.
 */

export const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;

/** An unconfirmed first payment is given up after this long, as the card processor expires an incomplete subscription. */
const FIRST_PAYMENT_TTL_MS = 23 * 60 * 60 * 1000;

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
    throw validationError(
      ["body", "seats"],
      `Seats must be between ${tiers.minimum_seats} and ${tiers.maximum_seats ?? "unlimited"}.`,
    );
  }
}

export function createCheckout(ctx: SandboxContext, input: z.infer<typeof checkoutCreateSchema>): CheckoutRecord {
  const products = input.products.map((id, index) => {
    const product = ctx.store.get("product", id);
    if (!product || product.is_archived)
      throw validationError(["body", "products", index], "Product does not exist or is archived.");
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
    payment_processor_metadata: {},
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
    if (!checkout.product_ids.includes(input.product_id))
      throw validationError(["body", "product_id"], "Product is not available in this checkout.");
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
      if (!checkout.allow_discount_codes)
        throw validationError(["body", "discount_code"], "Discount codes are not allowed on this checkout.");
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

export const findCheckout = (ctx: SandboxContext, id: string): CheckoutRecord => findRecord(ctx.store, "checkout", id);

export function findCheckoutBySecret(ctx: SandboxContext, clientSecret: string): CheckoutRecord {
  const checkout = ctx.store.findBy("checkout", "client_secret", clientSecret);
  if (!checkout) throw notFound();
  return checkout;
}

function expireCheckout(ctx: SandboxContext, checkout: CheckoutRecord): CheckoutRecord {
  const expired = ctx.store.put("checkout", { ...checkout, status: "expired", modified_at: ctx.clock.iso() });
  ctx.webhooks.emit("checkout.expired", serializeCheckout(ctx, expired));
  return expired;
}

/** Open checkouts past their expiry become `expired` (with checkout.expired) the moment anyone looks. */
export function expireIfDue(ctx: SandboxContext, checkout: CheckoutRecord): CheckoutRecord {
  return checkout.status === "open" && checkout.expires_at <= ctx.clock.iso()
    ? expireCheckout(ctx, checkout)
    : checkout;
}

/** The checkout is usable for paying: open (or failed, to try another card) and not past its expiry. */
export function assertCheckoutPayable(ctx: SandboxContext, checkout: CheckoutRecord): void {
  const current = expireIfDue(ctx, checkout);
  if (current.status === "expired")
    throw new ApiError(410, { error: "ExpiredCheckoutError", detail: "This checkout session has expired." });
  if (current.status !== "open" && current.status !== "failed")
    throw forbidden("AlreadyActiveSubscriptionError", "This checkout is already confirmed.");
}

/**
 * Confirms a checkout with a test card token and fulfils it synchronously (or holds it, when the card needs the
 * customer's confirmation: see `fulfilCheckout`). Returns the `confirmed` snapshot (CheckoutPublicConfirmed), as
 * the provider answers before fulfilment.
 */
export function confirmCheckout(
  ctx: SandboxContext,
  checkoutId: string,
  token: string | null | undefined,
  applyChanges?: (checkout: CheckoutRecord) => void,
): Record<string, unknown> {
  // Changes sent with the confirmation are part of it: a refused confirmation keeps none of them.
  const outcome = ctx.store.transaction(() => {
    const before = ctx.store.get("checkout", checkoutId);
    if (!before) throw new ApiError(404, { error: "ResourceNotFound", detail: "Not found" });
    applyChanges?.(before);
    const checkout = ctx.store.get("checkout", checkoutId)!;
    assertCheckoutPayable(ctx, checkout);
    if (!checkout.customer_email && !checkout.customer_id)
      throw validationError(["body", "customer_email"], "Field required");
    const amounts = checkoutAmounts(ctx, checkout);
    const product = findProduct(ctx, checkout.product_id);
    // A paid subscription needs a card on file even when a discount makes the first order free.
    const needsCard = amounts.totalAmount > 0 || (product.recurring_interval !== null && amounts.amount > 0);
    for (const attached of product.attached_custom_fields) {
      const field = ctx.store.get("custom_field", attached.custom_field_id);
      const value = field ? checkout.custom_field_data[field.slug] : undefined;
      if (field && attached.required && (value === undefined || value === null || value === "" || value === false)) {
        throw validationError(["body", "custom_field_data", field.slug], "Field required");
      }
    }
    if (checkout.discount_id) {
      const discount = ctx.store.get("discount", checkout.discount_id);
      if (discount) assertDiscountRedeemable(ctx, discount, checkout.product_id, ["body", "discount_code"]);
    }
    if (needsCard && !(token && TEST_CARDS.has(token))) {
      throw validationError(
        ["body", "confirmation_token_id"],
        `Use a test card token: ${PAYING_TOKEN} pays, ${DECLINED_TOKEN} is declined, ${ACTION_REQUIRED_TOKEN} needs the customer's confirmation.`,
      );
    }
    if (needsCard && token === DECLINED_TOKEN) {
      const failed = ctx.store.put("checkout", { ...checkout, status: "failed", modified_at: ctx.clock.iso() });
      ctx.webhooks.emit("checkout.updated", serializeCheckout(ctx, failed));
      // Returned, not thrown: the failed status must be committed before the 400 goes out.
      return { declined: true as const };
    }
    const requiresAction = needsCard && token === ACTION_REQUIRED_TOKEN;
    if (requiresAction && !product.recurring_interval) {
      throw validationError(
        ["body", "confirmation_token_id"],
        `${ACTION_REQUIRED_TOKEN} works with subscription checkouts only in the sandbox.`,
      );
    }

    const resolved = resolveCheckoutCustomer(ctx, checkout);
    const adopted = resolved.isNew
      ? { customer: resolved.customer, changed: false }
      : adoptCheckoutEmail(ctx, resolved.customer, checkout.customer_email);
    const customer = needsCard && token ? saveCard(ctx, adopted.customer, token) : adopted.customer;
    const sessionToken = resolved.issuesSessionToken ? createCustomerSession(ctx, customer.id, null).token : null;
    const confirmed = ctx.store.put("checkout", {
      ...checkout,
      status: "confirmed",
      customer_id: customer.id,
      customer_session_token: sessionToken,
      // The provider's page reads the card intent's status here: `requires_action` asks the customer to confirm.
      payment_processor_metadata: needsCard ? { intent_status: requiresAction ? "requires_action" : "succeeded" } : {},
      modified_at: ctx.clock.iso(),
    });
    const snapshot = { ...serializeCheckoutPublic(ctx, confirmed), customer_session_token: sessionToken };
    ctx.webhooks.emit("checkout.updated", serializeCheckout(ctx, confirmed));
    // The provider queues customer.created during confirmation, so it arrives after checkout.updated.
    if (resolved.isNew) ctx.webhooks.emit("customer.created", serializeCustomer(ctx, customer));
    if (adopted.changed) ctx.webhooks.emit("customer.updated", serializeCustomer(ctx, customer));
    fulfilCheckout(ctx, confirmed, customer, { cardToken: token ?? PAYING_TOKEN, requiresAction });
    return { declined: false as const, snapshot };
  });
  if (outcome.declined) throw new ApiError(400, { error: "PaymentError", detail: "Your card was declined." });
  return outcome.snapshot;
}

/** Checkout → customer: by id, by external id, by e-mail, else a new one (the provider's order). */
function resolveCheckoutCustomer(
  ctx: SandboxContext,
  checkout: CheckoutRecord,
): { customer: CustomerRecord; isNew: boolean; issuesSessionToken: boolean } {
  if (checkout.customer_id)
    return {
      customer: requireRecord(ctx.store, "customer", checkout.customer_id),
      isNew: false,
      issuesSessionToken: true,
    };
  if (checkout.external_customer_id) {
    const linked = findCustomerByExternalId(ctx, checkout.external_customer_id);
    if (linked) return { customer: linked, isNew: false, issuesSessionToken: true };
  }
  const email = checkout.customer_email ?? "";
  const byEmail = findCustomerByEmail(ctx, email);
  if (byEmail) {
    if (checkout.external_customer_id && byEmail.external_id && byEmail.external_id !== checkout.external_customer_id) {
      throw forbidden(
        "CheckoutCustomerExternalIdMismatch",
        "The customer with this e-mail already has another external ID.",
      );
    }
    return { customer: byEmail, isNew: false, issuesSessionToken: false };
  }
  const customer = insertCustomer(ctx, {
    email,
    name: checkout.customer_name,
    external_id: checkout.external_customer_id,
    metadata: checkout.customer_metadata,
    billing_address: checkout.customer_billing_address,
  });
  return { customer, isNew: true, issuesSessionToken: true };
}

/**
 * Fulfils a confirmed checkout: subscription (recurring products) → order → checkout succeeded → benefit grants →
 * customer.state_changed. When the card needs the customer's confirmation, it stops after a pending order: the
 * subscription is `incomplete`, the checkout stays `confirmed` (with `subscription_id`), nothing is granted, until
 * `completeFirstPayment` or `expireFirstPayment`. The provider's own checkout leaves a payment awaiting confirmation
 * `confirmed` too (its intent_status says `requires_action`); the incomplete subscription and pending order stand in
 * for the card processor's, so the app can see and complete the payment.
 */
function fulfilCheckout(
  ctx: SandboxContext,
  checkout: CheckoutRecord,
  customer: CustomerRecord,
  payment: { cardToken: string; requiresAction: boolean },
): void {
  const product = findProduct(ctx, checkout.product_id);
  const amounts = checkoutAmounts(ctx, checkout);
  if (amounts.discount)
    ctx.store.put("discount", { ...amounts.discount, redemptions_count: amounts.discount.redemptions_count + 1 });
  const price = amounts.price;
  if (!price) throw new Error(`checkout ${checkout.id} has no price`);

  let subscription: SubscriptionRecord | undefined;
  if (product.recurring_interval) {
    subscription = createSubscription(ctx, {
      checkout,
      customer,
      product,
      cardToken: payment.cardToken,
      discountId: amounts.discount?.id ?? null,
      firstPaymentPending: payment.requiresAction,
    });
  }
  const item: OrderItemRecord = itemFor(ctx, product.name, amounts.amount, price.id);
  const isTrial = subscription?.trial_end != null;
  createOrder(ctx, {
    customer,
    productId: product.id,
    subscription,
    checkoutId: checkout.id,
    billingReason: subscription ? "subscription_create" : "purchase",
    items: isTrial ? [itemFor(ctx, `${product.name} (trial)`, 0, price.id)] : [item],
    discount: isTrial ? undefined : amounts.discount,
    seats: checkout.seats,
    metadata: checkout.metadata,
    customFieldData: checkout.custom_field_data,
    paid: !payment.requiresAction,
  });
  if (payment.requiresAction) {
    ctx.store.put("checkout", { ...checkout, subscription_id: subscription?.id ?? null });
    return;
  }
  succeedCheckout(ctx, { ...checkout, subscription_id: subscription?.id ?? null }, customer, product);
}

/** The end of a paid checkout: succeeded (checkout.updated), then the benefit grants and customer.state_changed. */
function succeedCheckout(
  ctx: SandboxContext,
  checkout: CheckoutRecord,
  customer: CustomerRecord,
  product: ProductRecord,
): void {
  const succeeded = ctx.store.put("checkout", {
    ...checkout,
    status: "succeeded",
    payment_processor_metadata: { ...checkout.payment_processor_metadata, intent_status: "succeeded" },
    modified_at: ctx.clock.iso(),
  });
  ctx.webhooks.emit("checkout.updated", serializeCheckout(ctx, succeeded));
  grantBenefits(ctx, customer, product, {
    subscriptionId: succeeded.subscription_id,
    orderId: succeeded.subscription_id ? null : lastOrderId(ctx, checkout.id),
  });
  emitCustomerStateChanged(ctx, customer.id);
}

const lastOrderId = (ctx: SandboxContext, checkoutId: string) =>
  ctx.store.list("order", (order) => order.checkout_id === checkoutId).at(-1)?.id ?? null;

const firstOrders = (ctx: SandboxContext, subscription: SubscriptionRecord) =>
  ctx.store.list(
    "order",
    (order) =>
      order.subscription_id === subscription.id &&
      order.billing_reason === "subscription_create" &&
      order.status === "pending",
  );

/** The checkout whose first payment the subscription waits for; anything but an incomplete subscription is refused. */
function pendingCheckoutId(subscription: SubscriptionRecord): string {
  if (subscription.status !== "incomplete" || !subscription.checkout_id)
    throw forbidden(
      "SubscriptionNotIncomplete",
      "Only the first payment of an incomplete subscription awaits confirmation.",
    );
  return subscription.checkout_id;
}

/**
 * The customer confirmed the first payment (3-D Secure): the subscription starts and the checkout finishes as if it
 * had paid at once: subscription.updated → subscription.active (none for a trial) → order.updated → order.paid →
 * checkout.updated (succeeded) → benefit_grant.created per benefit → customer.state_changed.
 */
export function completeFirstPayment(ctx: SandboxContext, subscription: SubscriptionRecord): SubscriptionRecord {
  const checkout = requireRecord(ctx.store, "checkout", pendingCheckoutId(subscription));
  const status = subscription.trial_end && subscription.trial_end > ctx.clock.iso() ? "trialing" : "active";
  const started = ctx.store.put("subscription", { ...subscription, status, modified_at: ctx.clock.iso() });
  ctx.webhooks.emit("subscription.updated", serializeSubscription(ctx, started));
  if (status === "active") ctx.webhooks.emit("subscription.active", serializeSubscription(ctx, started));
  for (const order of firstOrders(ctx, started)) markOrderPaid(ctx, order);
  succeedCheckout(
    ctx,
    checkout,
    requireRecord(ctx.store, "customer", started.customer_id),
    findProduct(ctx, started.product_id),
  );
  return started;
}

/**
 * A first payment left unconfirmed past `FIRST_PAYMENT_TTL_MS` is given up: the subscription ends
 * `incomplete_expired` without ever granting anything, its order is voided and the checkout fails
 * (subscription.updated → order.updated → checkout.updated). The failed checkout takes another card until it expires.
 */
export function expireFirstPayment(ctx: SandboxContext, subscription: SubscriptionRecord): void {
  const checkout = requireRecord(ctx.store, "checkout", pendingCheckoutId(subscription));
  const expiredAt = new Date(new Date(subscription.created_at).getTime() + FIRST_PAYMENT_TTL_MS).toISOString();
  const expired = ctx.store.put("subscription", {
    ...subscription,
    status: "incomplete_expired",
    ends_at: expiredAt,
    ended_at: expiredAt,
    modified_at: ctx.clock.iso(),
  });
  ctx.webhooks.emit("subscription.updated", serializeSubscription(ctx, expired));
  for (const order of firstOrders(ctx, expired)) {
    const voided = ctx.store.put("order", { ...order, status: "void", modified_at: ctx.clock.iso() });
    ctx.webhooks.emit("order.updated", serializeOrder(ctx, voided));
  }
  // As the provider's failure handling does, the intent's status is dropped with the payment attempt.
  const failed = ctx.store.put("checkout", {
    ...checkout,
    status: "failed",
    payment_processor_metadata: {},
    modified_at: ctx.clock.iso(),
  });
  ctx.webhooks.emit("checkout.updated", serializeCheckout(ctx, failed));
}

/** Incomplete subscriptions whose first payment is past its confirmation window at the current sandbox time. */
export function firstPaymentsDue(ctx: SandboxContext): SubscriptionRecord[] {
  const now = ctx.clock.now().getTime();
  return ctx.store.list(
    "subscription",
    (subscription) =>
      subscription.status === "incomplete" && new Date(subscription.created_at).getTime() + FIRST_PAYMENT_TTL_MS <= now,
  );
}

import { ApiError, forbidden, validationError } from "./api-errors";
import { addInterval } from "./clock";
import { newId, newToken, type SandboxContext } from "./context";
import { meterBalanceForCustomer, recordSystemEvent } from "./metering";
import type {
  CheckoutRecord,
  CustomerRecord,
  DiscountRecord,
  GrantRecord,
  OrderItemRecord,
  OrderRecord,
  PriceRecord,
  ProductRecord,
  SubscriptionRecord,
} from "./records";
import {
  checkoutAmounts,
  discountFor,
  findPrice,
  findProduct,
  getCustomer,
  meteredCharge,
  priceAmount,
  serializeCheckout,
  serializeCheckoutPublic,
  serializeCustomer,
  serializeCustomerState,
  serializeGrant,
  serializeOrder,
  serializeRefund,
  serializeSubscription,
} from "./serializers";

/**
 * The provider's business flows: checkout fulfilment, subscriptions, renewals, orders, refunds and
 * benefit grants. Each flow emits its webhooks in the provider's order (see the provider notes, §4).
 */

/** A declined renewal leaves the subscription past_due for this long before it becomes unpaid. */
export const DUNNING_PERIOD_MS = 7 * 24 * 60 * 60 * 1000;
export const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;
export const CUSTOMER_SESSION_TTL_MS = 60 * 60 * 1000;
export const PAYING_TOKEN = "tok_visa";
export const DECLINED_TOKEN = "tok_chargeDeclined";

export function emitCustomerStateChanged(ctx: SandboxContext, customerId: string): void {
  ctx.webhooks.emit("customer.state_changed", serializeCustomerState(ctx, getCustomer(ctx, customerId)));
}

type CustomerInput = {
  email: string;
  name?: string | null;
  external_id?: string | null;
  metadata?: CustomerRecord["metadata"];
  billing_address?: CustomerRecord["billing_address"];
  tax_id?: CustomerRecord["tax_id"];
  locale?: string | null;
};

export function assertCustomerUnique(ctx: SandboxContext, input: { email?: string | null; external_id?: string | null }, exceptId?: string): void {
  const others = ctx.store.list("customer", (customer) => customer.deleted_at === null && customer.id !== exceptId);
  if (input.email && others.some((customer) => customer.email.toLowerCase() === input.email?.toLowerCase())) {
    throw validationError(["body", "email"], "A customer with this email address already exists.");
  }
  if (input.external_id && others.some((customer) => customer.external_id === input.external_id)) {
    throw validationError(["body", "external_id"], "A customer with this external ID already exists.");
  }
}

export function createCustomer(ctx: SandboxContext, input: CustomerInput): CustomerRecord {
  const customer = insertCustomer(ctx, input);
  ctx.webhooks.emit("customer.created", serializeCustomer(ctx, customer));
  return customer;
}

/** Stores a customer without announcing it (checkout confirmation announces it after checkout.updated). */
function insertCustomer(ctx: SandboxContext, input: CustomerInput): CustomerRecord {
  assertCustomerUnique(ctx, input);
  return ctx.store.put("customer", {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    metadata: input.metadata ?? {},
    external_id: input.external_id ?? null,
    email: input.email,
    email_verified: false,
    type: "individual",
    name: input.name ?? null,
    billing_name: null,
    billing_address: input.billing_address ?? null,
    tax_id: input.tax_id ?? null,
    locale: input.locale ?? null,
    deleted_at: null,
  });
}

export function findCustomerByExternalId(ctx: SandboxContext, externalId: string): CustomerRecord | undefined {
  return ctx.store.list("customer", (customer) => customer.external_id === externalId && customer.deleted_at === null)[0];
}

/** Whether a discount may be redeemed now on this product: dates, redemption limit and product restriction. */
export function assertDiscountRedeemable(ctx: SandboxContext, discount: DiscountRecord, productId: string, loc: string[]): void {
  const now = ctx.clock.iso();
  const isUsable =
    (!discount.starts_at || discount.starts_at <= now) &&
    (!discount.ends_at || discount.ends_at > now) &&
    (discount.max_redemptions === null || discount.redemptions_count < discount.max_redemptions) &&
    (discount.product_ids.length === 0 || discount.product_ids.includes(productId));
  if (!isUsable) throw validationError(loc, "Discount is not applicable or has expired.");
}

export function findDiscountByCode(ctx: SandboxContext, code: string): DiscountRecord | undefined {
  return ctx.store.list("discount", (discount) => discount.code !== null && discount.code.toLowerCase() === code.toLowerCase())[0];
}

function expireCheckout(ctx: SandboxContext, checkout: CheckoutRecord): CheckoutRecord {
  const expired = ctx.store.put("checkout", { ...checkout, status: "expired", modified_at: ctx.clock.iso() });
  ctx.webhooks.emit("checkout.expired", serializeCheckout(ctx, expired));
  return expired;
}

/** Open checkouts past their expiry become `expired` (with checkout.expired) the moment anyone looks. */
export function expireIfDue(ctx: SandboxContext, checkout: CheckoutRecord): CheckoutRecord {
  return checkout.status === "open" && checkout.expires_at <= ctx.clock.iso() ? expireCheckout(ctx, checkout) : checkout;
}

/** The checkout is usable for paying: open (or failed, to try another card) and not past its expiry. */
export function assertCheckoutPayable(ctx: SandboxContext, checkout: CheckoutRecord): void {
  const current = expireIfDue(ctx, checkout);
  if (current.status === "expired") throw new ApiError(410, { error: "ExpiredCheckoutError", detail: "This checkout session has expired." });
  if (current.status !== "open" && current.status !== "failed") throw forbidden("AlreadyActiveSubscriptionError", "This checkout is already confirmed.");
}

/**
 * Confirms a checkout with a test card token and, when it pays, fulfils it synchronously.
 * Returns the `confirmed` snapshot (CheckoutPublicConfirmed), as the provider answers before fulfilment.
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
    if (!checkout.customer_email && !checkout.customer_id) throw validationError(["body", "customer_email"], "Field required");
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
    if (needsCard && token !== PAYING_TOKEN && token !== DECLINED_TOKEN) {
      throw validationError(["body", "confirmation_token_id"], `Use a test card token: ${PAYING_TOKEN} pays, ${DECLINED_TOKEN} is declined.`);
    }
    if (needsCard && token === DECLINED_TOKEN) {
      const failed = ctx.store.put("checkout", { ...checkout, status: "failed", modified_at: ctx.clock.iso() });
      ctx.webhooks.emit("checkout.updated", serializeCheckout(ctx, failed));
      // Returned, not thrown: the failed status must be committed before the 400 goes out.
      return { declined: true as const };
    }

    const { customer, isNew, issuesSessionToken } = resolveCheckoutCustomer(ctx, checkout);
    const sessionToken = issuesSessionToken ? createCustomerSession(ctx, customer.id, null).token : null;
    const confirmed = ctx.store.put("checkout", {
      ...checkout,
      status: "confirmed",
      customer_id: customer.id,
      customer_session_token: sessionToken,
      modified_at: ctx.clock.iso(),
    });
    const snapshot = { ...serializeCheckoutPublic(ctx, confirmed), customer_session_token: sessionToken };
    ctx.webhooks.emit("checkout.updated", serializeCheckout(ctx, confirmed));
    // The provider queues customer.created during confirmation, so it arrives after checkout.updated.
    if (isNew) ctx.webhooks.emit("customer.created", serializeCustomer(ctx, customer));
    fulfilCheckout(ctx, confirmed, customer, token ?? PAYING_TOKEN);
    return { declined: false as const, snapshot };
  });
  if (outcome.declined) throw new ApiError(400, { error: "PaymentError", detail: "Your card was declined." });
  return outcome.snapshot;
}

/** Checkout → customer: by id, by external id, by e-mail, else a new one (the provider's order). */
function resolveCheckoutCustomer(ctx: SandboxContext, checkout: CheckoutRecord): { customer: CustomerRecord; isNew: boolean; issuesSessionToken: boolean } {
  if (checkout.customer_id) return { customer: getCustomer(ctx, checkout.customer_id), isNew: false, issuesSessionToken: true };
  if (checkout.external_customer_id) {
    const linked = findCustomerByExternalId(ctx, checkout.external_customer_id);
    if (linked) return { customer: linked, isNew: false, issuesSessionToken: true };
  }
  const email = checkout.customer_email ?? "";
  const byEmail = ctx.store.list("customer", (customer) => customer.deleted_at === null && customer.email.toLowerCase() === email.toLowerCase())[0];
  if (byEmail) {
    if (checkout.external_customer_id && byEmail.external_id && byEmail.external_id !== checkout.external_customer_id) {
      throw forbidden("CheckoutCustomerExternalIdMismatch", "The customer with this e-mail already has another external ID.");
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

export function createCustomerSession(ctx: SandboxContext, customerId: string, returnUrl: string | null) {
  const now = ctx.clock.now();
  return ctx.store.put("customer_session", {
    id: newId(),
    created_at: now.toISOString(),
    modified_at: null,
    token: newToken("polar_cst_"),
    expires_at: new Date(now.getTime() + CUSTOMER_SESSION_TTL_MS).toISOString(),
    return_url: returnUrl,
    customer_id: customerId,
  });
}

function fulfilCheckout(ctx: SandboxContext, checkout: CheckoutRecord, customer: CustomerRecord, cardToken: string): void {
  const product = findProduct(ctx, checkout.product_id);
  const amounts = checkoutAmounts(ctx, checkout);
  if (amounts.discount) ctx.store.put("discount", { ...amounts.discount, redemptions_count: amounts.discount.redemptions_count + 1 });
  const price = amounts.price;
  if (!price) throw new Error(`checkout ${checkout.id} has no price`);

  let subscription: SubscriptionRecord | undefined;
  if (product.recurring_interval) {
    subscription = createSubscription(ctx, { checkout, customer, product, cardToken, discountId: amounts.discount?.id ?? null });
  }
  const item: OrderItemRecord = itemFor(ctx, product.name, amounts.amount, price.id);
  const isTrial = subscription?.status === "trialing";
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
    paid: true,
  });
  const succeeded = ctx.store.put("checkout", { ...checkout, status: "succeeded", subscription_id: subscription?.id ?? null, modified_at: ctx.clock.iso() });
  ctx.webhooks.emit("checkout.updated", serializeCheckout(ctx, succeeded));
  grantBenefits(ctx, customer, product, { subscriptionId: subscription?.id ?? null, orderId: subscription ? null : lastOrderId(ctx, checkout.id) });
  emitCustomerStateChanged(ctx, customer.id);
}

const lastOrderId = (ctx: SandboxContext, checkoutId: string) => ctx.store.list("order", (order) => order.checkout_id === checkoutId).at(-1)?.id ?? null;

function itemFor(ctx: SandboxContext, label: string, amount: number, priceId: string | null, proration = false): OrderItemRecord {
  return { id: newId(), created_at: ctx.clock.iso(), modified_at: null, label, amount, tax_amount: 0, proration, product_price_id: priceId };
}

/** The recurring amount of a subscription: its static prices (metered ones are billed from usage). */
function staticAmount(prices: PriceRecord[], seats: number | null): number {
  return prices.reduce((total, price) => total + priceAmount(price, { seats }), 0);
}

function createSubscription(
  ctx: SandboxContext,
  input: { checkout: CheckoutRecord; customer: CustomerRecord; product: ProductRecord; cardToken: string; discountId: string | null },
): SubscriptionRecord {
  const { checkout, customer, product } = input;
  const now = ctx.clock.now();
  const interval = product.recurring_interval ?? "month";
  const count = product.recurring_interval_count ?? 1;
  const trialInterval = checkout.allow_trial ? (checkout.trial_interval ?? product.trial_interval) : null;
  const trialCount = checkout.trial_interval_count ?? product.trial_interval_count ?? 1;
  const trialEnd = trialInterval ? addInterval(now, trialInterval, trialCount) : null;
  const prices = product.prices.filter((price) => !price.is_archived);
  const mainPrice = findPrice(ctx, checkout.product_price_id);
  const amount = mainPrice?.amount_type === "custom" ? priceAmount(mainPrice, { customAmount: checkout.custom_amount }) : staticAmount(prices, checkout.seats);
  const subscription = ctx.store.put("subscription", {
    id: newId(),
    created_at: now.toISOString(),
    modified_at: null,
    amount,
    currency: mainPrice?.price_currency ?? "usd",
    recurring_interval: interval,
    recurring_interval_count: count,
    status: trialEnd ? "trialing" : "active",
    current_period_start: now.toISOString(),
    current_period_end: (trialEnd ?? addInterval(now, interval, count)).toISOString(),
    trial_start: trialEnd ? now.toISOString() : null,
    trial_end: trialEnd?.toISOString() ?? null,
    cancel_at_period_end: false,
    canceled_at: null,
    started_at: now.toISOString(),
    ends_at: null,
    ended_at: null,
    past_due_at: null,
    customer_id: customer.id,
    product_id: product.id,
    discount_id: input.discountId,
    discount_periods_used: trialEnd ? 0 : 1,
    checkout_id: checkout.id,
    seats: checkout.seats,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
    metadata: checkout.metadata,
    custom_field_data: checkout.custom_field_data,
    price_ids: prices.map((price) => price.id),
    card_token: input.cardToken,
    pending_proration: [],
  });
  ctx.webhooks.emit("subscription.created", serializeSubscription(ctx, subscription));
  if (subscription.status === "active") ctx.webhooks.emit("subscription.active", serializeSubscription(ctx, subscription));
  ctx.webhooks.emit("subscription.updated", serializeSubscription(ctx, subscription));
  return subscription;
}

type OrderInput = {
  customer: CustomerRecord;
  productId: string | null;
  subscription?: SubscriptionRecord;
  checkoutId: string | null;
  billingReason: OrderRecord["billing_reason"];
  items: OrderItemRecord[];
  discount?: DiscountRecord;
  seats: number | null;
  metadata: OrderRecord["metadata"];
  customFieldData: OrderRecord["custom_field_data"];
  /** Paid orders emit created → updated → paid; pending ones only created (payment comes later). */
  paid: boolean;
};

function createOrder(ctx: SandboxContext, input: OrderInput): OrderRecord {
  const subtotal = input.items.reduce((total, item) => total + item.amount, 0);
  const discountAmount = input.discount ? discountFor(input.discount, Math.max(0, subtotal)) : 0;
  const net = Math.max(0, subtotal - discountAmount);
  const count = ctx.store.list("order").length + 1;
  const product = input.productId ? ctx.store.get("product", input.productId) : undefined;
  const order = ctx.store.put("order", {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    status: "pending",
    paid: false,
    subtotal_amount: subtotal,
    discount_amount: discountAmount,
    net_amount: net,
    tax_amount: 0,
    total_amount: net,
    refunded_amount: 0,
    refunded_tax_amount: 0,
    currency: "usd",
    billing_reason: input.billingReason,
    billing_name: input.customer.billing_name ?? input.customer.name,
    billing_address: input.customer.billing_address,
    invoice_number: `SANDBOX-${String(count).padStart(4, "0")}`,
    customer_id: input.customer.id,
    product_id: input.productId,
    discount_id: input.discount?.id ?? null,
    subscription_id: input.subscription?.id ?? null,
    checkout_id: input.checkoutId,
    metadata: input.metadata,
    custom_field_data: input.customFieldData,
    seats: input.seats,
    items: input.items,
    description: product?.name ?? "Sandbox order",
  });
  ctx.webhooks.emit("order.created", serializeOrder(ctx, order));
  return input.paid ? markOrderPaid(ctx, order) : order;
}

function markOrderPaid(ctx: SandboxContext, order: OrderRecord): OrderRecord {
  const paid = ctx.store.put("order", { ...order, status: "paid", paid: true, modified_at: ctx.clock.iso() });
  ctx.webhooks.emit("order.updated", serializeOrder(ctx, paid));
  ctx.webhooks.emit("order.paid", serializeOrder(ctx, paid));
  return paid;
}

function grantBenefits(
  ctx: SandboxContext,
  customer: CustomerRecord,
  product: ProductRecord,
  source: { subscriptionId: string | null; orderId: string | null },
): void {
  for (const benefitId of product.benefit_ids) {
    const benefit = ctx.store.get("benefit", benefitId);
    if (!benefit || benefit.is_deleted) continue;
    const now = ctx.clock.iso();
    const properties = benefit.type === "meter_credit" ? creditMeter(ctx, customer, benefit.properties) : {};
    const grant = ctx.store.put("grant", {
      id: newId(),
      created_at: now,
      modified_at: null,
      granted_at: now,
      revoked_at: null,
      is_granted: true,
      is_revoked: false,
      subscription_id: source.subscriptionId,
      order_id: source.orderId,
      customer_id: customer.id,
      benefit_id: benefit.id,
      properties,
    });
    ctx.webhooks.emit("benefit_grant.created", serializeGrant(ctx, grant));
  }
}

function creditMeter(
  ctx: SandboxContext,
  customer: CustomerRecord,
  properties: Record<string, unknown>,
  units = Number(properties.units ?? 0),
): Record<string, unknown> {
  recordSystemEvent(ctx, customer, "meter.credited", { meter_id: properties.meter_id, units, rollover: Boolean(properties.rollover) });
  return { last_credited_meter_id: String(properties.meter_id), last_credited_units: units, last_credited_at: ctx.clock.iso() };
}

function activeGrants(ctx: SandboxContext, predicate: (grant: GrantRecord) => boolean): GrantRecord[] {
  return ctx.store.list("grant", (grant) => grant.is_granted && !grant.is_revoked && predicate(grant));
}

export function revokeGrants(ctx: SandboxContext, grants: GrantRecord[]): void {
  for (const grant of grants) {
    const benefit = ctx.store.get("benefit", grant.benefit_id);
    if (benefit?.type === "meter_credit") {
      recordSystemEvent(ctx, getCustomer(ctx, grant.customer_id), "meter.credited", {
        meter_id: benefit.properties.meter_id,
        units: -Number(grant.properties.last_credited_units ?? 0),
        rollover: false,
      });
    }
    const now = ctx.clock.iso();
    const revoked = ctx.store.put("grant", { ...grant, is_granted: false, is_revoked: true, revoked_at: now, modified_at: now });
    ctx.webhooks.emit("benefit_grant.revoked", serializeGrant(ctx, revoked));
  }
}

function putSubscription(ctx: SandboxContext, subscription: SubscriptionRecord, changes: Partial<SubscriptionRecord>): SubscriptionRecord {
  return ctx.store.put("subscription", { ...subscription, ...changes, modified_at: ctx.clock.iso() });
}

const emitSubscription = (ctx: SandboxContext, subscription: SubscriptionRecord, ...types: string[]) => {
  for (const type of types) ctx.webhooks.emit(`subscription.${type}`, serializeSubscription(ctx, subscription));
};

const isEnded = (subscription: SubscriptionRecord) => ["canceled", "unpaid", "incomplete_expired"].includes(subscription.status);

export function cancelAtPeriodEnd(ctx: SandboxContext, subscription: SubscriptionRecord, reason: string | null, comment: string | null): SubscriptionRecord {
  if (isEnded(subscription) || subscription.cancel_at_period_end)
    throw forbidden("AlreadyCanceledSubscription", "This subscription is already canceled or will be at the end of the period.");
  const updated = putSubscription(ctx, subscription, {
    cancel_at_period_end: true,
    canceled_at: ctx.clock.iso(),
    ends_at: subscription.current_period_end,
    customer_cancellation_reason: reason,
    customer_cancellation_comment: comment,
  });
  emitSubscription(ctx, updated, "updated", "canceled");
  emitCustomerStateChanged(ctx, updated.customer_id);
  return updated;
}

export function uncancel(ctx: SandboxContext, subscription: SubscriptionRecord): SubscriptionRecord {
  if (isEnded(subscription)) throw forbidden("AlreadyCanceledSubscription", "This subscription has ended.");
  if (!subscription.cancel_at_period_end) return subscription;
  const updated = putSubscription(ctx, subscription, {
    cancel_at_period_end: false,
    canceled_at: null,
    ends_at: null,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
  });
  emitSubscription(ctx, updated, "updated", "uncanceled");
  return updated;
}

/** Ends the subscription now: updated → canceled → revoked, then its grants are revoked. */
export function revokeSubscription(ctx: SandboxContext, subscription: SubscriptionRecord): SubscriptionRecord {
  if (isEnded(subscription)) throw forbidden("AlreadyCanceledSubscription", "This subscription is already canceled.");
  const now = ctx.clock.iso();
  const updated = putSubscription(ctx, subscription, { status: "canceled", cancel_at_period_end: false, canceled_at: now, ends_at: now, ended_at: now });
  emitSubscription(ctx, updated, "updated", "canceled", "revoked");
  revokeGrants(
    ctx,
    activeGrants(ctx, (grant) => grant.subscription_id === subscription.id),
  );
  emitCustomerStateChanged(ctx, updated.customer_id);
  return updated;
}

/**
 * Switches the subscription to another recurring product. `invoice` bills the prorated difference
 * now (a subscription_update order); `prorate` adds it to the next renewal.
 */
export function changeProduct(ctx: SandboxContext, subscription: SubscriptionRecord, productId: string, behavior: "invoice" | "prorate"): SubscriptionRecord {
  if (isEnded(subscription)) throw forbidden("AlreadyCanceledSubscription", "This subscription has ended.");
  const product = ctx.store.get("product", productId);
  if (!product || product.is_archived || !product.recurring_interval)
    throw validationError(["body", "product_id"], "The product must be an active recurring product.");
  const oldProduct = findProduct(ctx, subscription.product_id);
  const prices = product.prices.filter((price) => !price.is_archived);
  const newAmount = staticAmount(prices, subscription.seats);
  const start = new Date(subscription.current_period_start).getTime();
  const end = new Date(subscription.current_period_end).getTime();
  const remaining = Math.min(1, Math.max(0, (end - ctx.clock.now().getTime()) / (end - start)));
  const prorationItems = [
    itemFor(ctx, `Remaining time on ${product.name}`, Math.round(newAmount * remaining), prices[0]?.id ?? null, true),
    itemFor(ctx, `Unused time on ${oldProduct.name}`, -Math.round(subscription.amount * remaining), subscription.price_ids[0] ?? null, true),
  ];
  const updated = putSubscription(ctx, subscription, {
    product_id: product.id,
    price_ids: prices.map((price) => price.id),
    amount: newAmount,
    recurring_interval: product.recurring_interval,
    recurring_interval_count: product.recurring_interval_count ?? 1,
    pending_proration: behavior === "prorate" ? [...subscription.pending_proration, ...prorationItems] : subscription.pending_proration,
  });
  emitSubscription(ctx, updated, "updated");
  const customer = getCustomer(ctx, subscription.customer_id);
  if (behavior === "invoice") {
    createOrder(ctx, {
      customer,
      productId: product.id,
      subscription: updated,
      checkoutId: null,
      billingReason: "subscription_update",
      items: prorationItems,
      seats: updated.seats,
      metadata: updated.metadata,
      customFieldData: updated.custom_field_data,
      paid: true,
    });
  }
  const kept = new Set(product.benefit_ids);
  revokeGrants(
    ctx,
    activeGrants(ctx, (grant) => grant.subscription_id === subscription.id && !kept.has(grant.benefit_id)),
  );
  const granted = new Set(activeGrants(ctx, (grant) => grant.subscription_id === subscription.id).map((grant) => grant.benefit_id));
  grantBenefits(
    ctx,
    customer,
    { ...product, benefit_ids: product.benefit_ids.filter((id) => !granted.has(id)) },
    { subscriptionId: subscription.id, orderId: null },
  );
  emitCustomerStateChanged(ctx, customer.id);
  return ctx.store.get("subscription", subscription.id) ?? updated;
}

/** Whether the discount still applies to a period that starts after `periodsUsed` billed periods. */
function discountApplies(discount: DiscountRecord, subscription: SubscriptionRecord): boolean {
  if (discount.duration === "forever") return true;
  if (discount.duration === "once") return subscription.discount_periods_used === 0;
  const monthsPerPeriod = subscription.recurring_interval === "year" ? 12 : subscription.recurring_interval === "month" ? 1 : 0;
  return subscription.discount_periods_used * monthsPerPeriod < (discount.duration_in_months ?? 0);
}

/**
 * One renewal: the period moves on, an order bills the new period plus last period's usage, and the
 * card on file pays it (subscription.cycled → updated → order.created → order.updated → order.paid →
 * benefit_grant.cycled → customer.state_changed) or is declined (→ updated → past_due).
 */
function renewSubscription(ctx: SandboxContext, subscription: SubscriptionRecord): SubscriptionRecord {
  const customer = getCustomer(ctx, subscription.customer_id);
  const prices = subscription.price_ids.map((id) => findPrice(ctx, id)).filter((price): price is PriceRecord => Boolean(price));
  const product = findProduct(ctx, subscription.product_id);
  const periodStart = new Date(subscription.current_period_end);
  const periodEnd = addInterval(periodStart, subscription.recurring_interval, subscription.recurring_interval_count);

  const items: OrderItemRecord[] = [];
  for (const price of prices) {
    if (price.amount_type === "metered_unit") {
      const meter = ctx.store.get("meter", price.meter_id ?? "");
      if (!meter) continue;
      const usage = meteredCharge(price, meterBalanceForCustomer(ctx, customer, meter));
      if (usage > 0) items.push(itemFor(ctx, `${meter.name} usage`, usage, price.id));
    } else {
      const amount = price.amount_type === "custom" ? subscription.amount : priceAmount(price, { seats: subscription.seats });
      items.push(itemFor(ctx, product.name, amount, price.id));
    }
  }
  items.push(...subscription.pending_proration);
  const discount = subscription.discount_id ? ctx.store.get("discount", subscription.discount_id) : undefined;
  const appliedDiscount = discount && discountApplies(discount, subscription) ? discount : undefined;

  const cycled = putSubscription(ctx, subscription, {
    status: subscription.status === "trialing" ? "active" : subscription.status,
    current_period_start: periodStart.toISOString(),
    current_period_end: periodEnd.toISOString(),
    discount_periods_used: subscription.discount_periods_used + (appliedDiscount ? 1 : 0),
    pending_proration: [],
  });
  emitSubscription(ctx, cycled, "cycled", "updated");
  const order = createOrder(ctx, {
    customer,
    productId: product.id,
    subscription: cycled,
    checkoutId: null,
    billingReason: "subscription_cycle",
    items,
    discount: appliedDiscount,
    seats: cycled.seats,
    metadata: cycled.metadata,
    customFieldData: cycled.custom_field_data,
    paid: false,
  });
  const meteredMeters = prices.flatMap((price) => {
    const meter = price.amount_type === "metered_unit" ? ctx.store.get("meter", price.meter_id ?? "") : undefined;
    return meter ? [meter] : [];
  });
  const balancesBefore = new Map(meteredMeters.map((meter) => [meter.id, meterBalanceForCustomer(ctx, customer, meter)]));
  // Usage is billed on this order, so every meter of the subscription starts the new period at zero.
  for (const meterId of balancesBefore.keys()) recordSystemEvent(ctx, customer, "meter.reset", { meter_id: meterId });

  if (cycled.card_token === DECLINED_TOKEN && order.total_amount > 0) {
    const pastDue = putSubscription(ctx, cycled, { status: "past_due", past_due_at: ctx.clock.iso() });
    emitSubscription(ctx, pastDue, "updated", "past_due");
    emitCustomerStateChanged(ctx, customer.id);
    return pastDue;
  }
  markOrderPaid(ctx, order);
  cycleGrants(ctx, cycled, customer, balancesBefore);
  emitCustomerStateChanged(ctx, customer.id);
  return cycled;
}

/** benefit_grant.cycled for every grant of the subscription; meter_credit grants reset and credit again. */
function cycleGrants(
  ctx: SandboxContext,
  subscription: SubscriptionRecord,
  customer: CustomerRecord,
  balancesBefore: Map<string, { consumed: number; credited: number }>,
): void {
  for (const grant of activeGrants(ctx, (candidate) => candidate.subscription_id === subscription.id)) {
    const benefit = ctx.store.get("benefit", grant.benefit_id);
    let properties = grant.properties;
    if (benefit?.type === "meter_credit") {
      const meterId = String(benefit.properties.meter_id);
      let before = balancesBefore.get(meterId);
      if (!before) {
        const meter = ctx.store.get("meter", meterId);
        before = meter ? meterBalanceForCustomer(ctx, customer, meter) : { consumed: 0, credited: 0 };
        recordSystemEvent(ctx, customer, "meter.reset", { meter_id: meterId });
      }
      const units = Number(benefit.properties.units ?? 0);
      if (benefit.properties.rollover) {
        const rollover = Math.min(Math.max(0, before.credited - before.consumed), units);
        if (rollover > 0) recordSystemEvent(ctx, customer, "meter.credited", { meter_id: meterId, units: rollover, rollover: true });
      }
      properties = creditMeter(ctx, customer, benefit.properties, units);
    }
    const cycled = ctx.store.put("grant", { ...grant, properties, modified_at: ctx.clock.iso() });
    ctx.webhooks.emit("benefit_grant.cycled", serializeGrant(ctx, cycled));
  }
}

/** Ends a subscription that was set to cancel, at its period end: updated → canceled → revoked. */
function endAtPeriodEnd(ctx: SandboxContext, subscription: SubscriptionRecord): void {
  const ended = putSubscription(ctx, subscription, { status: "canceled", ended_at: subscription.current_period_end, ends_at: subscription.current_period_end });
  emitSubscription(ctx, ended, "updated", "canceled", "revoked");
  revokeGrants(
    ctx,
    activeGrants(ctx, (grant) => grant.subscription_id === subscription.id),
  );
  emitCustomerStateChanged(ctx, ended.customer_id);
}

/** After the dunning period a past_due subscription is retried once more: paid → active, else unpaid and revoked. */
function settlePastDue(ctx: SandboxContext, subscription: SubscriptionRecord): void {
  const pending = ctx.store.list("order", (order) => order.subscription_id === subscription.id && order.status === "pending");
  if (subscription.card_token !== DECLINED_TOKEN) {
    for (const order of pending) markOrderPaid(ctx, order);
    const active = putSubscription(ctx, subscription, { status: "active", past_due_at: null });
    emitSubscription(ctx, active, "updated", "active");
    emitCustomerStateChanged(ctx, active.customer_id);
    return;
  }
  const now = ctx.clock.iso();
  const unpaid = putSubscription(ctx, subscription, { status: "unpaid", ends_at: now, ended_at: now });
  emitSubscription(ctx, unpaid, "updated", "revoked");
  revokeGrants(
    ctx,
    activeGrants(ctx, (grant) => grant.subscription_id === subscription.id),
  );
  emitCustomerStateChanged(ctx, unpaid.customer_id);
}

/** Applies everything that became due at the current sandbox time, oldest first, until nothing is left. */
export function processDueWork(ctx: SandboxContext): void {
  ctx.store.transaction(() => {
    const now = () => ctx.clock.iso();
    for (const checkout of ctx.store.list("checkout", (candidate) => candidate.status === "open")) expireIfDue(ctx, checkout);
    for (;;) {
      const due = ctx.store
        .list("subscription", (candidate) => (candidate.status === "active" || candidate.status === "trialing") && candidate.current_period_end <= now())
        .sort((a, b) => a.current_period_end.localeCompare(b.current_period_end))[0];
      const overdue = ctx.store.list(
        "subscription",
        (candidate) =>
          candidate.status === "past_due" &&
          candidate.past_due_at !== null &&
          new Date(candidate.past_due_at).getTime() + DUNNING_PERIOD_MS <= ctx.clock.now().getTime(),
      )[0];
      if (overdue) settlePastDue(ctx, overdue);
      else if (due?.cancel_at_period_end) endAtPeriodEnd(ctx, due);
      else if (due) renewSubscription(ctx, due);
      else break;
    }
  });
}

/** Refund part or all of a paid order: refund.created → order.updated → order.refunded (→ grant revocations). */
export function refundOrder(
  ctx: SandboxContext,
  input: {
    order_id: string;
    amount: number;
    reason: "duplicate" | "fraudulent" | "customer_request" | "service_disruption" | "satisfaction_guarantee" | "other";
    comment?: string | null;
    revoke_benefits?: boolean;
    metadata?: Record<string, string | number | boolean>;
  },
) {
  return ctx.store.transaction(() => {
    const order = ctx.store.get("order", input.order_id);
    if (!order) throw validationError(["body", "order_id"], "Order not found.");
    if (order.status === "refunded") throw forbidden("RefundedAlready", "Order is already fully refunded.");
    if (!order.paid) throw validationError(["body", "order_id"], "Order is not paid.");
    const refundable = order.net_amount - order.refunded_amount;
    if (input.amount <= 0 || input.amount > refundable) throw validationError(["body", "amount"], `Amount must be between 1 and ${refundable}.`);
    if (input.revoke_benefits && order.subscription_id)
      throw validationError(["body", "revoke_benefits"], "Subscription benefits are revoked by canceling the subscription.");
    const now = ctx.clock.iso();
    const refund = ctx.store.put("refund", {
      id: newId(),
      created_at: now,
      modified_at: null,
      metadata: input.metadata ?? {},
      status: "succeeded",
      reason: input.reason,
      amount: input.amount,
      tax_amount: 0,
      currency: order.currency,
      order_id: order.id,
      subscription_id: order.subscription_id,
      customer_id: order.customer_id,
      revoke_benefits: input.revoke_benefits ?? false,
      comment: input.comment ?? null,
    });
    ctx.webhooks.emit("refund.created", serializeRefund(ctx, refund));
    const refundedAmount = order.refunded_amount + input.amount;
    const updated = ctx.store.put("order", {
      ...order,
      refunded_amount: refundedAmount,
      status: refundedAmount >= order.net_amount ? "refunded" : "partially_refunded",
      modified_at: now,
    });
    ctx.webhooks.emit("order.updated", serializeOrder(ctx, updated));
    ctx.webhooks.emit("order.refunded", serializeOrder(ctx, updated));
    if (refund.revoke_benefits) {
      revokeGrants(
        ctx,
        activeGrants(ctx, (grant) => grant.order_id === order.id),
      );
      emitCustomerStateChanged(ctx, order.customer_id);
    }
    return refund;
  });
}

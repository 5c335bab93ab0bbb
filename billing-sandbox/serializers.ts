import { createHash } from "node:crypto";
import { notFound } from "./api-errors";
import type { SandboxContext } from "./context";
import { customerMeterBalances, meterBalanceForCustomer } from "./metering";
import type {
  BenefitRecord,
  CheckoutRecord,
  CustomFieldRecord,
  CustomerRecord,
  CustomerSessionRecord,
  DiscountRecord,
  GrantRecord,
  MeterRecord,
  OrderRecord,
  PriceRecord,
  ProductRecord,
  RefundRecord,
  SubscriptionRecord,
} from "./records";

/**
 * Records → the provider's wire objects (OpenAPI 2026-10 component schemas). Each function names
 * the schema it produces; the integration tests validate every one of them against the document.
 */
type Json = Record<string, unknown>;

/** A UUIDv4-shaped id derived from its parts: for objects the provider has but the sandbox computes on read. */
export function stableId(...parts: string[]): string {
  const hex = createHash("sha256").update(parts.join(":")).digest("hex");
  const variant = ((parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function findProduct(ctx: SandboxContext, id: string): ProductRecord {
  const product = ctx.store.get("product", id);
  if (!product) throw notFound();
  return product;
}

export function findPrice(ctx: SandboxContext, priceId: string): PriceRecord | undefined {
  for (const product of ctx.store.list("product")) {
    const price = product.prices.find((candidate) => candidate.id === priceId);
    if (price) return price;
  }
  return undefined;
}

function meterOf(ctx: SandboxContext, meterId: string): MeterRecord {
  const meter = ctx.store.get("meter", meterId);
  if (!meter) throw new Error(`meter ${meterId} is missing`);
  return meter;
}

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
      return { ...base, minimum_amount: price.minimum_amount ?? 0, maximum_amount: price.maximum_amount ?? null, preset_amount: price.preset_amount ?? null };
    case "seat_based":
      return { ...base, seat_tiers: price.seat_tiers };
    case "metered_unit": {
      const meter = meterOf(ctx, price.meter_id ?? "");
      return {
        ...base,
        unit_amount: price.unit_amount,
        cap_amount: price.cap_amount ?? null,
        meter_id: meter.id,
        meter: { id: meter.id, name: meter.name, unit: meter.unit, custom_label: meter.custom_label, custom_multiplier: meter.custom_multiplier },
      };
    }
  }
}

/** Benefit. */
export function serializeBenefit(ctx: SandboxContext, benefit: BenefitRecord): Json {
  return { ...benefit, organization_id: ctx.organization.id };
}

/** BenefitPublic: what buyers may see. */
function serializeBenefitPublic(ctx: SandboxContext, benefit: BenefitRecord): Json {
  const { id, created_at, modified_at, type, description, selectable, deletable, is_deleted } = benefit;
  return { id, created_at, modified_at, type, description, selectable, deletable, is_deleted, organization_id: ctx.organization.id };
}

export function serializeCustomField(ctx: SandboxContext, field: CustomFieldRecord): Json {
  return { ...field, organization_id: ctx.organization.id };
}

function benefitsOf(ctx: SandboxContext, product: ProductRecord): BenefitRecord[] {
  return product.benefit_ids.map((id) => ctx.store.get("benefit", id)).filter((benefit): benefit is BenefitRecord => Boolean(benefit && !benefit.is_deleted));
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

const activePrices = (product: ProductRecord) => product.prices.filter((price) => !price.is_archived);

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
function serializePublicProduct(ctx: SandboxContext, product: ProductRecord): Json {
  const { metadata: _metadata, ...core } = serializeProductCore(ctx, product);
  return {
    ...core,
    prices: activePrices(product).map((price) => serializePrice(ctx, price)),
    benefits: benefitsOf(ctx, product).map((benefit) => serializeBenefitPublic(ctx, benefit)),
    medias: [],
  };
}

function organizationPublic(ctx: SandboxContext): Json {
  const { id, name, slug, created_at } = ctx.organization;
  return { id, name, slug, created_at, modified_at: null, avatar_url: null, proration_behavior: "prorate", allow_customer_updates: true };
}

function customerOrganization(ctx: SandboxContext): Json {
  return { ...organizationPublic(ctx), customer_portal_settings: { usage: { show: true }, subscription: { update_seats: true, update_plan: true } } };
}

/** Discount, or the `*Base` variant (no `products`) nested in subscriptions and orders. */
export function serializeDiscount(ctx: SandboxContext, discount: DiscountRecord, options: { withProducts: boolean } = { withProducts: true }): Json {
  const wire: Json = {
    id: discount.id,
    created_at: discount.created_at,
    modified_at: discount.modified_at,
    name: discount.name,
    type: discount.type,
    duration: discount.duration,
    code: discount.code,
    starts_at: discount.starts_at,
    ends_at: discount.ends_at,
    max_redemptions: discount.max_redemptions,
    max_redemptions_per_customer: null,
    redemptions_count: discount.redemptions_count,
    organization_id: ctx.organization.id,
    metadata: discount.metadata,
    ...discountAmountFields(discount),
  };
  if (options.withProducts) {
    wire.products = discount.product_ids.flatMap((id) => {
      const product = ctx.store.get("product", id);
      return product ? [serializeProductCore(ctx, product)] : [];
    });
  }
  return wire;
}

function discountAmountFields(discount: DiscountRecord): Json {
  const amount =
    discount.type === "percentage"
      ? { basis_points: discount.basis_points }
      : { amount: discount.amount, currency: discount.currency, amounts: { [discount.currency ?? "usd"]: discount.amount } };
  return discount.duration === "repeating" ? { ...amount, duration_in_months: discount.duration_in_months } : amount;
}

/** CheckoutDiscount*: the slim discount a buyer sees. */
function serializeCheckoutDiscount(discount: DiscountRecord): Json {
  return { id: discount.id, name: discount.name, code: discount.code, type: discount.type, duration: discount.duration, ...discountAmountFields(discount) };
}

/** Customer (individual). */
export function serializeCustomer(ctx: SandboxContext, customer: CustomerRecord): Json {
  return { ...customer, organization_id: ctx.organization.id, first_user_event_at: null, avatar_url: null };
}

/** CustomerPortalCustomer. */
function serializePortalCustomer(customer: CustomerRecord): Json {
  const { id, created_at, modified_at, email, email_verified, name, billing_name, billing_address, tax_id, type, locale } = customer;
  return { id, created_at, modified_at, email, email_verified, name, billing_name, billing_address, tax_id, oauth_accounts: {}, type, locale };
}

export function getCustomer(ctx: SandboxContext, id: string): CustomerRecord {
  const customer = ctx.store.get("customer", id);
  if (!customer) throw new Error(`customer ${id} is missing`);
  return customer;
}

/** Amounts of a checkout: the price, its discount, no tax (the sandbox sells tax-free), and the total. */
export function checkoutAmounts(ctx: SandboxContext, checkout: CheckoutRecord) {
  const price = findPrice(ctx, checkout.product_price_id);
  const amount = price ? priceAmount(price, { customAmount: checkout.custom_amount, seats: checkout.seats }) : 0;
  const discount = checkout.discount_id ? ctx.store.get("discount", checkout.discount_id) : undefined;
  const isDiscountApplicable = Boolean(discount && (discount.product_ids.length === 0 || discount.product_ids.includes(checkout.product_id)));
  const discountAmount = discount && isDiscountApplicable ? discountFor(discount, amount) : 0;
  const netAmount = amount - discountAmount;
  return { price, amount, discount, discountAmount, netAmount, taxAmount: 0, totalAmount: netAmount, currency: price?.price_currency ?? "usd" };
}

/** What one period of a price costs before discounts; metered prices are billed afterwards from usage. */
export function priceAmount(price: PriceRecord, options: { customAmount?: number | null; seats?: number | null } = {}): number {
  switch (price.amount_type) {
    case "fixed":
      return price.price_amount ?? 0;
    case "custom":
      return options.customAmount ?? price.preset_amount ?? price.minimum_amount ?? 0;
    case "seat_based": {
      const seats = options.seats ?? price.seat_tiers?.minimum_seats ?? 1;
      const tier = price.seat_tiers?.tiers.find((candidate) => seats >= candidate.min_seats && (candidate.max_seats === null || seats <= candidate.max_seats));
      return seats * (tier?.price_per_seat ?? 0);
    }
    case "metered_unit":
      return 0;
  }
}

export function discountFor(discount: DiscountRecord, amount: number): number {
  if (discount.type === "percentage") return Math.round((amount * (discount.basis_points ?? 0)) / 10_000);
  return Math.min(amount, discount.amount ?? 0);
}

export function checkoutSuccessUrl(ctx: SandboxContext, checkout: CheckoutRecord): string {
  if (!checkout.success_url) return `${checkoutUrl(ctx, checkout)}/confirmation`;
  return checkout.success_url.replaceAll("{CHECKOUT_ID}", checkout.id);
}

export const checkoutUrl = (ctx: SandboxContext, checkout: CheckoutRecord) => `${ctx.publicUrl}/checkout/${checkout.client_secret}`;

/** Checkout (the organization's view). */
export function serializeCheckout(ctx: SandboxContext, checkout: CheckoutRecord): Json {
  const amounts = checkoutAmounts(ctx, checkout);
  const product = findProduct(ctx, checkout.product_id);
  const products = checkout.product_ids.map((id) => findProduct(ctx, id));
  const isFree = amounts.totalAmount === 0 && amounts.price?.amount_type !== "metered_unit";
  const isRecurring = product.recurring_interval !== null;
  const trialInterval = checkout.allow_trial ? (checkout.trial_interval ?? product.trial_interval) : null;
  const trialCount = checkout.allow_trial ? (checkout.trial_interval_count ?? product.trial_interval_count) : null;
  return {
    id: checkout.id,
    created_at: checkout.created_at,
    modified_at: checkout.modified_at,
    custom_field_data: checkout.custom_field_data,
    payment_processor: "stripe",
    status: checkout.status,
    client_secret: checkout.client_secret,
    url: checkoutUrl(ctx, checkout),
    expires_at: checkout.expires_at,
    success_url: checkoutSuccessUrl(ctx, checkout),
    return_url: checkout.return_url,
    embed_origin: checkout.embed_origin,
    amount: amounts.amount,
    seats: checkout.seats,
    discount_amount: amounts.discountAmount,
    net_amount: amounts.netAmount,
    tax_amount: amounts.taxAmount,
    tax_behavior: "exclusive",
    total_amount: amounts.totalAmount,
    currency: amounts.currency,
    allow_trial: checkout.allow_trial,
    active_trial_interval: trialInterval,
    active_trial_interval_count: trialInterval ? (trialCount ?? 1) : null,
    trial_end: null,
    organization_id: ctx.organization.id,
    product_id: checkout.product_id,
    product_price_id: checkout.product_price_id,
    discount_id: checkout.discount_id,
    allow_discount_codes: checkout.allow_discount_codes,
    require_billing_address: checkout.require_billing_address,
    is_discount_applicable: amounts.amount > 0,
    is_free_product_price: isFree,
    is_payment_required: amounts.totalAmount > 0,
    is_payment_setup_required: isRecurring && !isFree,
    is_payment_form_required: amounts.totalAmount > 0 || (isRecurring && !isFree),
    customer_id: checkout.customer_id,
    is_business_customer: checkout.is_business_customer,
    customer_name: checkout.customer_name,
    customer_email: checkout.customer_email,
    customer_ip_address: null,
    customer_billing_name: checkout.customer_billing_name,
    customer_billing_address: checkout.customer_billing_address,
    customer_tax_id: checkout.customer_tax_id,
    payment_method_type: null,
    payment_processor_metadata: {},
    billing_address_fields: {
      country: checkout.require_billing_address ? "required" : "optional",
      state: "optional",
      city: "optional",
      postal_code: "optional",
      line1: "optional",
      line2: "optional",
    },
    trial_interval: checkout.trial_interval,
    trial_interval_count: checkout.trial_interval_count,
    metadata: checkout.metadata,
    external_customer_id: checkout.external_customer_id,
    products: products.map((item) => serializePublicProduct(ctx, item)),
    product: serializePublicProduct(ctx, product),
    product_price: amounts.price ? serializePrice(ctx, amounts.price) : null,
    prices: Object.fromEntries(products.map((item) => [item.id, activePrices(item).map((price) => serializePrice(ctx, price))])),
    discount: amounts.discount ? serializeCheckoutDiscount(amounts.discount) : null,
    subscription_id: checkout.subscription_id,
    attached_custom_fields: serializeProduct(ctx, product).attached_custom_fields,
    customer_metadata: checkout.customer_metadata,
  };
}

/** CheckoutPublic: what the hosted page (client secret holder) may read. */
export function serializeCheckoutPublic(ctx: SandboxContext, checkout: CheckoutRecord): Json {
  const {
    metadata: _metadata,
    external_customer_id: _externalCustomerId,
    customer_metadata: _customerMetadata,
    subscription_id: _subscriptionId,
    trial_interval: _trialInterval,
    trial_interval_count: _trialIntervalCount,
    ...wire
  } = serializeCheckout(ctx, checkout);
  return { ...wire, organization: organizationPublic(ctx) };
}

/** OrderSubscription / CustomerOrderSubscription: the subscription without nested objects. */
export function serializeSubscriptionCore(subscription: SubscriptionRecord): Json {
  const {
    discount_periods_used: _used,
    price_ids: _priceIds,
    card_token: _card,
    pending_proration: _proration,
    custom_field_data: _fields,
    metadata,
    ...core
  } = subscription;
  return { ...core, metadata, current_meter_period_start: null, current_meter_period_end: null, pause_at_period_end: false, paused_at: null, resumes_at: null };
}

function subscriptionPrices(ctx: SandboxContext, subscription: SubscriptionRecord): PriceRecord[] {
  return subscription.price_ids.map((id) => findPrice(ctx, id)).filter((price): price is PriceRecord => Boolean(price));
}

/** SubscriptionMeter entries: usage of each metered price in the current period. */
function subscriptionMeters(ctx: SandboxContext, subscription: SubscriptionRecord, withMeter: boolean): Json[] {
  return subscriptionPrices(ctx, subscription)
    .filter((price) => price.amount_type === "metered_unit")
    .map((price) => {
      const meter = meterOf(ctx, price.meter_id ?? "");
      const balance = meterBalanceForCustomer(ctx, getCustomer(ctx, subscription.customer_id), meter);
      const entry: Json = {
        id: stableId(subscription.id, meter.id),
        created_at: subscription.created_at,
        modified_at: null,
        consumed_units: balance.consumed,
        credited_units: balance.credited,
        amount: meteredCharge(price, balance),
        meter_id: meter.id,
      };
      return withMeter ? { ...entry, meter: serializeMeter(ctx, meter) } : entry;
    });
}

/** A metered price charges the units used beyond the credited ones, capped at `cap_amount`. */
export function meteredCharge(price: PriceRecord, balance: { consumed: number; credited: number }): number {
  const billable = Math.max(0, balance.consumed - balance.credited);
  const charge = Math.round(billable * Number(price.unit_amount ?? "0"));
  return price.cap_amount != null ? Math.min(charge, price.cap_amount) : charge;
}

/** Subscription. */
export function serializeSubscription(ctx: SandboxContext, subscription: SubscriptionRecord): Json {
  const discount = subscription.discount_id ? ctx.store.get("discount", subscription.discount_id) : undefined;
  return {
    ...serializeSubscriptionCore(subscription),
    custom_field_data: subscription.custom_field_data,
    customer: serializeCustomer(ctx, getCustomer(ctx, subscription.customer_id)),
    product: serializeProduct(ctx, findProduct(ctx, subscription.product_id)),
    discount: discount ? serializeDiscount(ctx, discount, { withProducts: false }) : null,
    prices: subscriptionPrices(ctx, subscription).map((price) => serializePrice(ctx, price)),
    meters: subscriptionMeters(ctx, subscription, true),
    pending_update: null,
  };
}

/** CustomerSubscription (portal). */
export function serializeCustomerSubscription(ctx: SandboxContext, subscription: SubscriptionRecord): Json {
  const { metadata: _metadata, ...core } = serializeSubscriptionCore(subscription);
  return {
    ...core,
    product: { ...serializePublicProduct(ctx, findProduct(ctx, subscription.product_id)), organization: customerOrganization(ctx) },
    prices: subscriptionPrices(ctx, subscription).map((price) => serializePrice(ctx, price)),
    meters: subscriptionMeters(ctx, subscription, false).map((entry) => {
      const meter = meterOf(ctx, String(entry.meter_id));
      return { ...entry, meter: { id: meter.id, created_at: meter.created_at, modified_at: meter.modified_at, name: meter.name } };
    }),
    pending_update: null,
  };
}

function orderCommon(order: OrderRecord): Json {
  const { metadata: _metadata, custom_field_data: _fields, ...core } = order;
  return {
    ...core,
    applied_balance_amount: 0,
    due_amount: order.status === "pending" ? order.total_amount : 0,
    is_invoice_generated: false,
    receipt_number: null,
    refundable_amount: order.paid ? order.net_amount - order.refunded_amount : 0,
    refundable_tax_amount: order.paid ? order.tax_amount - order.refunded_tax_amount : 0,
  };
}

/** Order. */
export function serializeOrder(ctx: SandboxContext, order: OrderRecord): Json {
  const product = order.product_id ? ctx.store.get("product", order.product_id) : undefined;
  const discount = order.discount_id ? ctx.store.get("discount", order.discount_id) : undefined;
  const subscription = order.subscription_id ? ctx.store.get("subscription", order.subscription_id) : undefined;
  return {
    ...orderCommon(order),
    metadata: order.metadata,
    custom_field_data: order.custom_field_data,
    platform_fee_amount: 0,
    platform_fee_currency: null,
    customer: serializeCustomer(ctx, getCustomer(ctx, order.customer_id)),
    product: product ? serializeProductCore(ctx, product) : null,
    discount: discount ? serializeDiscount(ctx, discount, { withProducts: false }) : null,
    subscription: subscription ? serializeSubscriptionCore(subscription) : null,
  };
}

/** CustomerOrder (portal). */
export function serializeCustomerOrder(ctx: SandboxContext, order: OrderRecord): Json {
  const product = order.product_id ? ctx.store.get("product", order.product_id) : undefined;
  const subscription = order.subscription_id ? ctx.store.get("subscription", order.subscription_id) : undefined;
  const subscriptionCore = subscription ? serializeSubscriptionCore(subscription) : null;
  if (subscriptionCore) delete subscriptionCore.metadata;
  return {
    ...orderCommon(order),
    product: product ? { ...serializePublicProduct(ctx, product), organization: customerOrganization(ctx) } : null,
    subscription: subscriptionCore,
  };
}

/** Refund. */
export function serializeRefund(ctx: SandboxContext, refund: RefundRecord): Json {
  const { comment: _comment, ...wire } = refund;
  return { ...wire, organization_id: ctx.organization.id, dispute: null };
}

/** BenefitGrant (and the BenefitGrant*Webhook variants, which share its fields). */
export function serializeGrant(ctx: SandboxContext, grant: GrantRecord): Json {
  const benefit = ctx.store.get("benefit", grant.benefit_id);
  if (!benefit) throw notFound();
  return {
    ...grant,
    customer: serializeCustomer(ctx, getCustomer(ctx, grant.customer_id)),
    benefit: serializeBenefit(ctx, benefit),
  };
}

/** CustomerBenefitGrant* (portal). */
export function serializeCustomerGrant(ctx: SandboxContext, grant: GrantRecord): Json {
  const benefit = ctx.store.get("benefit", grant.benefit_id);
  if (!benefit) throw notFound();
  const { metadata: _metadata, visibility: _visibility, visibility_configurable: _configurable, ...benefitWire } = serializeBenefit(ctx, benefit);
  return {
    ...grant,
    customer: serializePortalCustomer(getCustomer(ctx, grant.customer_id)),
    benefit: { ...benefitWire, organization: organizationPublic(ctx) },
  };
}

/** Meter. */
export function serializeMeter(ctx: SandboxContext, meter: MeterRecord): Json {
  return { ...meter, organization_id: ctx.organization.id };
}

export function activeSubscriptionsOf(ctx: SandboxContext, customerId: string): SubscriptionRecord[] {
  return ctx.store.list(
    "subscription",
    (subscription) => subscription.customer_id === customerId && (subscription.status === "active" || subscription.status === "trialing"),
  );
}

/** CustomerState: the customer with active subscriptions, granted benefits and meter balances. */
export function serializeCustomerState(ctx: SandboxContext, customer: CustomerRecord): Json {
  const grants = ctx.store.list("grant", (grant) => grant.customer_id === customer.id && grant.is_granted && !grant.is_revoked);
  return {
    ...serializeCustomer(ctx, customer),
    active_subscriptions: activeSubscriptionsOf(ctx, customer.id).map((subscription) => ({
      id: subscription.id,
      created_at: subscription.created_at,
      modified_at: subscription.modified_at,
      custom_field_data: subscription.custom_field_data,
      metadata: subscription.metadata,
      status: subscription.status,
      amount: subscription.amount,
      currency: subscription.currency,
      recurring_interval: subscription.recurring_interval,
      current_period_start: subscription.current_period_start,
      current_period_end: subscription.current_period_end,
      trial_start: subscription.trial_start,
      trial_end: subscription.trial_end,
      cancel_at_period_end: subscription.cancel_at_period_end,
      canceled_at: subscription.canceled_at,
      started_at: subscription.started_at,
      ends_at: subscription.ends_at,
      product_id: subscription.product_id,
      discount_id: subscription.discount_id,
      meters: subscriptionMeters(ctx, subscription, false),
    })),
    granted_benefits: grants.flatMap((grant) => {
      const benefit = ctx.store.get("benefit", grant.benefit_id);
      if (!benefit) return [];
      return [
        {
          id: grant.id,
          created_at: grant.created_at,
          modified_at: grant.modified_at,
          granted_at: grant.granted_at,
          benefit_id: benefit.id,
          benefit_type: benefit.type,
          benefit_metadata: benefit.metadata,
          properties: grant.properties,
        },
      ];
    }),
    active_meters: customerMeterBalances(ctx, customer).map(({ meter, balance }) => ({
      id: stableId(customer.id, meter.id),
      created_at: customer.created_at,
      modified_at: null,
      meter_id: meter.id,
      consumed_units: balance.consumed,
      credited_units: balance.credited,
      balance: balance.credited - balance.consumed,
    })),
  };
}

/** CustomerMeter (organization view) and CustomerCustomerMeter (portal view). */
export function serializeCustomerMeter(ctx: SandboxContext, customer: CustomerRecord, meter: MeterRecord, view: "organization" | "portal"): Json {
  const balance = meterBalanceForCustomer(ctx, customer, meter);
  const base = {
    id: stableId(customer.id, meter.id),
    created_at: customer.created_at,
    modified_at: null,
    customer_id: customer.id,
    meter_id: meter.id,
    consumed_units: balance.consumed,
    credited_units: balance.credited,
    balance: balance.credited - balance.consumed,
  };
  if (view === "portal") return { ...base, meter: { id: meter.id, created_at: meter.created_at, modified_at: meter.modified_at, name: meter.name } };
  return { ...base, customer: serializeCustomer(ctx, customer), meter: serializeMeter(ctx, meter) };
}

/** CustomerSession. */
export function serializeCustomerSession(ctx: SandboxContext, session: CustomerSessionRecord): Json {
  const customer = getCustomer(ctx, session.customer_id);
  const portalUrl = new URL(`${ctx.publicUrl}/portal`);
  portalUrl.searchParams.set("customer_session_token", session.token);
  portalUrl.searchParams.set("email", customer.email);
  return { ...session, customer_portal_url: portalUrl.toString(), customer: serializeCustomer(ctx, customer) };
}

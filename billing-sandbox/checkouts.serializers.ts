import type { SandboxContext } from "./context";
import { serializeCheckoutDiscount } from "./discounts.serializers";
import { serializeOrganizationPublic } from "./organizations.serializers";
import { activePrices, serializePrice, serializeProduct, serializePublicProduct } from "./products.serializers";
import type { CheckoutRecord } from "./records";
import { discountFor, findPrice, findRecord, priceAmount, type Json } from "./shared";

/** Amounts of a checkout: the price, its discount, no tax (the sandbox sells tax-free), and the total. */
export function checkoutAmounts(ctx: SandboxContext, checkout: CheckoutRecord) {
  const price = findPrice(ctx.store, checkout.product_price_id);
  const amount = price ? priceAmount(price, { customAmount: checkout.custom_amount, seats: checkout.seats }) : 0;
  const discount = checkout.discount_id ? ctx.store.get("discount", checkout.discount_id) : undefined;
  const isDiscountApplicable = Boolean(
    discount && (discount.product_ids.length === 0 || discount.product_ids.includes(checkout.product_id)),
  );
  const discountAmount = discount && isDiscountApplicable ? discountFor(discount, amount) : 0;
  const netAmount = amount - discountAmount;
  return {
    price,
    amount,
    discount,
    discountAmount,
    netAmount,
    taxAmount: 0,
    totalAmount: netAmount,
    currency: price?.price_currency ?? "usd",
  };
}

function checkoutSuccessUrl(ctx: SandboxContext, checkout: CheckoutRecord): string {
  if (!checkout.success_url) return `${checkoutUrl(ctx, checkout)}/confirmation`;
  return checkout.success_url.replaceAll("{CHECKOUT_ID}", checkout.id);
}

const checkoutUrl = (ctx: SandboxContext, checkout: CheckoutRecord) =>
  `${ctx.publicUrl}/checkout/${checkout.client_secret}`;

/** Checkout (the organization's view). */
export function serializeCheckout(ctx: SandboxContext, checkout: CheckoutRecord): Json {
  const amounts = checkoutAmounts(ctx, checkout);
  const product = findRecord(ctx.store, "product", checkout.product_id);
  const products = checkout.product_ids.map((id) => findRecord(ctx.store, "product", id));
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
    payment_processor_metadata: checkout.payment_processor_metadata,
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
    prices: Object.fromEntries(
      products.map((item) => [item.id, activePrices(item).map((price) => serializePrice(ctx, price))]),
    ),
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
  return { ...wire, organization: serializeOrganizationPublic(ctx) };
}

import { serializeBenefit } from "./benefits.serializers";
import type { SandboxContext } from "./context";
import { customerMeterBase } from "./customers.serializers";
import { serializeMeterSummary, serializeSubscriptionMeters, subscriptionPrices } from "./meters.serializers";
import { serializeOrderCommon } from "./orders.serializers";
import { serializeOrganizationPublic } from "./organizations.serializers";
import { serializePrice, serializePublicProduct } from "./products.serializers";
import type { CustomerRecord, GrantRecord, MeterRecord, OrderRecord, SubscriptionRecord } from "./records";
import { findRecord, requireRecord, type Json } from "./shared";
import { serializeSubscriptionCore } from "./subscriptions.serializers";

/** The customer portal's views: what the customer-session holder may see of their own objects. */

function customerOrganization(ctx: SandboxContext): Json {
  return {
    ...serializeOrganizationPublic(ctx),
    customer_portal_settings: ctx.organization.customer_portal_settings,
  };
}

/** CustomerPortalCustomer. */
function serializePortalCustomer(customer: CustomerRecord): Json {
  const {
    id,
    created_at,
    modified_at,
    email,
    email_verified,
    name,
    billing_name,
    billing_address,
    tax_id,
    type,
    locale,
  } = customer;
  return {
    id,
    created_at,
    modified_at,
    email,
    email_verified,
    name,
    billing_name,
    billing_address,
    tax_id,
    oauth_accounts: {},
    type,
    locale,
  };
}

/** CustomerSubscription. */
export function serializeCustomerSubscription(ctx: SandboxContext, subscription: SubscriptionRecord): Json {
  const { metadata: _metadata, ...core } = serializeSubscriptionCore(subscription);
  return {
    ...core,
    product: {
      ...serializePublicProduct(ctx, findRecord(ctx.store, "product", subscription.product_id)),
      organization: customerOrganization(ctx),
    },
    prices: subscriptionPrices(ctx, subscription).map((price) => serializePrice(ctx, price)),
    meters: serializeSubscriptionMeters(ctx, subscription, false).map((entry) => ({
      ...entry,
      meter: serializeMeterSummary(requireRecord(ctx.store, "meter", String(entry.meter_id))),
    })),
    pending_update: null,
  };
}

/** CustomerOrder. */
export function serializeCustomerOrder(ctx: SandboxContext, order: OrderRecord): Json {
  const product = order.product_id ? ctx.store.get("product", order.product_id) : undefined;
  const subscription = order.subscription_id ? ctx.store.get("subscription", order.subscription_id) : undefined;
  const subscriptionCore = subscription ? serializeSubscriptionCore(subscription) : null;
  if (subscriptionCore) delete subscriptionCore.metadata;
  return {
    ...serializeOrderCommon(order),
    product: product ? { ...serializePublicProduct(ctx, product), organization: customerOrganization(ctx) } : null,
    subscription: subscriptionCore,
  };
}

/** CustomerBenefitGrant*. */
export function serializeCustomerGrant(ctx: SandboxContext, grant: GrantRecord): Json {
  const benefit = findRecord(ctx.store, "benefit", grant.benefit_id);
  const {
    metadata: _metadata,
    visibility: _visibility,
    visibility_configurable: _configurable,
    ...benefitWire
  } = serializeBenefit(ctx, benefit);
  return {
    ...grant,
    customer: serializePortalCustomer(requireRecord(ctx.store, "customer", grant.customer_id)),
    benefit: { ...benefitWire, organization: serializeOrganizationPublic(ctx) },
  };
}

/** CustomerCustomerMeter. */
export function serializeCustomerCustomerMeter(
  ctx: SandboxContext,
  customer: CustomerRecord,
  meter: MeterRecord,
): Json {
  return { ...customerMeterBase(ctx, customer, meter), meter: serializeMeterSummary(meter) };
}

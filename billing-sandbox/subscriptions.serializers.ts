import type { SandboxContext } from "./context";
import { serializeCustomer } from "./customers.serializers";
import { serializeDiscount } from "./discounts.serializers";
import { serializeSubscriptionMeters, subscriptionPrices } from "./meters.serializers";
import { serializePrice, serializeProduct } from "./products.serializers";
import type { SubscriptionRecord } from "./records";
import { findRecord, requireRecord, type Json } from "./shared";

/** OrderSubscription / CustomerOrderSubscription: the subscription without nested objects. */
export function serializeSubscriptionCore(subscription: SubscriptionRecord): Json {
  const {
    cycle_anchor: _anchor,
    price_ids: _priceIds,
    card_token: _card,
    pending_proration: _proration,
    custom_field_data: _fields,
    metadata,
    ...core
  } = subscription;
  return {
    ...core,
    metadata,
    current_meter_period_start: null,
    current_meter_period_end: null,
    pause_at_period_end: false,
    paused_at: null,
    resumes_at: null,
  };
}

/** Subscription. */
export function serializeSubscription(ctx: SandboxContext, subscription: SubscriptionRecord): Json {
  const discount = subscription.discount_id ? ctx.store.get("discount", subscription.discount_id) : undefined;
  return {
    ...serializeSubscriptionCore(subscription),
    custom_field_data: subscription.custom_field_data,
    customer: serializeCustomer(ctx, requireRecord(ctx.store, "customer", subscription.customer_id)),
    product: serializeProduct(ctx, findRecord(ctx.store, "product", subscription.product_id)),
    discount: discount ? serializeDiscount(ctx, discount, { withProducts: false }) : null,
    prices: subscriptionPrices(ctx, subscription).map((price) => serializePrice(ctx, price)),
    meters: serializeSubscriptionMeters(ctx, subscription, true),
    pending_update: null,
  };
}

import type { SandboxContext } from "./context";
import { serializeCustomer } from "./customers.serializers";
import { serializeDiscount } from "./discounts.serializers";
import { serializeProductCore } from "./products.serializers";
import type { OrderRecord, RefundRecord } from "./records";
import { requireRecord, type Json } from "./shared";
import { serializeSubscriptionCore } from "./subscriptions.serializers";

/** The fields Order and the portal's CustomerOrder share. */
export function serializeOrderCommon(order: OrderRecord): Json {
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
    ...serializeOrderCommon(order),
    metadata: order.metadata,
    custom_field_data: order.custom_field_data,
    platform_fee_amount: 0,
    platform_fee_currency: null,
    customer: serializeCustomer(ctx, requireRecord(ctx.store, "customer", order.customer_id)),
    product: product ? serializeProductCore(ctx, product) : null,
    discount: discount ? serializeDiscount(ctx, discount, { withProducts: false }) : null,
    subscription: subscription ? serializeSubscriptionCore(subscription) : null,
  };
}

/** Refund. */
export function serializeRefund(ctx: SandboxContext, refund: RefundRecord): Json {
  const { comment: _comment, ...wire } = refund;
  return { ...wire, organization_id: ctx.organization.id, dispute: null };
}

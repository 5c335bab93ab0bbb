import { forbidden, validationError } from "./api-errors";
import { activeGrants, revokeGrants } from "./benefits.service";
import type { SandboxContext } from "./context";
import { emitCustomerStateChanged } from "./customers.service";
import { serializeOrder, serializeRefund } from "./orders.serializers";
import type { CustomerRecord, DiscountRecord, OrderItemRecord, OrderRecord, SubscriptionRecord } from "./records";
import { discountFor, newId } from "./shared";

/** Orders (made by checkouts, renewals, and plan and seat changes), their payment, and refunds. */

export function itemFor(
  ctx: SandboxContext,
  label: string,
  amount: number,
  priceId: string | null,
  proration = false,
): OrderItemRecord {
  return {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    label,
    amount,
    tax_amount: 0,
    proration,
    product_price_id: priceId,
  };
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

export function createOrder(ctx: SandboxContext, input: OrderInput): OrderRecord {
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

export function markOrderPaid(ctx: SandboxContext, order: OrderRecord): OrderRecord {
  const paid = ctx.store.put("order", { ...order, status: "paid", paid: true, modified_at: ctx.clock.iso() });
  ctx.webhooks.emit("order.updated", serializeOrder(ctx, paid));
  ctx.webhooks.emit("order.paid", serializeOrder(ctx, paid));
  return paid;
}

/**
 * Refund part or all of a paid order. The refund is created `pending` and succeeds within the same request (the
 * sandbox has no processor to wait for, so the outcome is deterministic): refund.created (pending) → refund.updated
 * (succeeded) → order.updated → order.refunded (→ benefit_grant.revoked → customer.state_changed with revoke_benefits).
 */
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
    if (input.amount <= 0 || input.amount > refundable)
      throw validationError(["body", "amount"], `Amount must be between 1 and ${refundable}.`);
    if (input.revoke_benefits && order.subscription_id)
      throw validationError(
        ["body", "revoke_benefits"],
        "Subscription benefits are revoked by canceling the subscription.",
      );
    const now = ctx.clock.iso();
    const pending = ctx.store.put("refund", {
      id: newId(),
      created_at: now,
      modified_at: null,
      metadata: input.metadata ?? {},
      status: "pending",
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
    ctx.webhooks.emit("refund.created", serializeRefund(ctx, pending));
    const refund = ctx.store.put("refund", { ...pending, status: "succeeded", modified_at: now });
    ctx.webhooks.emit("refund.updated", serializeRefund(ctx, refund));
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

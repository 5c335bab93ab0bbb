import type {
  BillingOrder,
  BillingRefund,
  BillingSubscription,
  SubscriptionStatus,
} from "../../../common/billing.schemas";
import type { models } from "./billing.provider";

/** Pure: the stored copies of provider objects (the projection) and their shapes in the app's contract. No I/O. */

/** What the projection keeps of any provider object: its id and the provider's timestamps. */
export type ProviderObject = { id: string; created_at: string | Date; modified_at: string | Date | null };

/** The provider's time as sortable text: `…+00:00`, `…Z` and microseconds all become `toISOString()`. */
export function isoText(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** A provider object as a projection row: stamped with its last change (or its creation). */
export function objectRecord(object: ProviderObject): {
  id: string;
  modifiedAt: string;
  createdAt: string;
  data: ProviderObject;
} {
  return {
    id: object.id,
    modifiedAt: (isoText(object.modified_at) ?? isoText(object.created_at)) as string,
    createdAt: isoText(object.created_at) as string,
    data: object,
  };
}

/** The customer state the provider last sent, if any. */
export function stateOf(customer: { state: string | null } | undefined): models.CustomerState | undefined {
  return customer?.state ? (JSON.parse(customer.state) as models.CustomerState) : undefined;
}

export function toSubscription(
  subscription: models.Subscription,
  discount: BillingSubscription["discount"],
): BillingSubscription {
  return {
    id: subscription.id,
    status: subscription.status as SubscriptionStatus,
    productId: subscription.product_id,
    recurringInterval: subscription.recurring_interval,
    amount: subscription.amount,
    currency: subscription.currency,
    currentPeriodStart: isoText(subscription.current_period_start) as string,
    currentPeriodEnd: isoText(subscription.current_period_end) as string,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    canceledAt: isoText(subscription.canceled_at),
    endsAt: isoText(subscription.ends_at),
    cancellationReason: subscription.customer_cancellation_reason ?? null,
    seats: subscription.seats ?? null,
    discountId: subscription.discount_id,
    discount,
  };
}

export function toOrder(order: models.Order): BillingOrder {
  return {
    id: order.id,
    createdAt: isoText(order.created_at) as string,
    totalAmount: order.total_amount,
    refundedAmount: order.refunded_amount,
    currency: order.currency,
    status: order.status,
    billingReason: order.billing_reason,
    productName: order.product?.name ?? null,
    invoiceNumber: order.invoice_number ?? null,
  };
}

export function toRefund(refund: models.Refund): BillingRefund {
  return {
    id: refund.id,
    orderId: refund.order_id,
    createdAt: isoText(refund.created_at) as string,
    amount: refund.amount,
    currency: refund.currency,
    status: refund.status,
    reason: refund.reason,
  };
}

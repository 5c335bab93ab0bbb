import { forbidden, validationError } from "./api-errors";
import { activeGrants, cycleGrants, grantBenefits, revokeGrants } from "./benefits.service";
import { addInterval, nextPeriodEnd, periodEnd } from "./clock";
import type { SandboxContext } from "./context";
import { emitCustomerStateChanged } from "./customers.service";
import { meterBalanceForCustomer, recordSystemEvent } from "./meters.service";
import { createOrder, itemFor, markOrderPaid } from "./orders.service";
import { findProduct } from "./products.service";
import type {
  CheckoutRecord,
  CustomerRecord,
  DiscountRecord,
  OrderItemRecord,
  PriceRecord,
  ProductRecord,
  ProrationBehavior,
  SubscriptionRecord,
} from "./records";
import { DECLINED_TOKEN, findPrice, findRecord, meteredCharge, newId, priceAmount, requireRecord } from "./shared";
import { serializeSubscription } from "./subscriptions.serializers";

/**
 * Subscriptions: created by checkouts, renewed when their period ends (subscription.cycled and an order),
 * canceled at period end or revoked at once, switched to another product or number of seats, and dunned when a
 * renewal is declined.
 * Each flow emits its webhooks in the provider's order (see the provider notes, §4).
 */

export const findSubscription = (ctx: SandboxContext, id: string): SubscriptionRecord =>
  findRecord(ctx.store, "subscription", id);

/** A declined renewal leaves the subscription past_due for this long before it becomes unpaid. */
export const DUNNING_PERIOD_MS = 7 * 24 * 60 * 60 * 1000;

/** Where billing starts: the trial's end when there was a trial, else the start. Discounts count from here. */
const firstBilled = (subscription: SubscriptionRecord) =>
  new Date(subscription.trial_end ?? subscription.started_at ?? subscription.created_at);

/**
 * The instant every period end is counted from: where billing started, or where a change of billing interval
 * restarted the cycle. Renewals keep its day of the month (see `periodEnd`).
 */
const billingAnchor = (subscription: SubscriptionRecord) =>
  subscription.cycle_anchor ? new Date(subscription.cycle_anchor) : firstBilled(subscription);

/** The prices a subscription bills (they may since have been archived on the product). */
const pricesOf = (ctx: SandboxContext, subscription: SubscriptionRecord) =>
  subscription.price_ids.map((id) => findPrice(ctx.store, id)).filter((price): price is PriceRecord => Boolean(price));

/** The recurring amount of a subscription: its static prices (metered ones are billed from usage). */
function staticAmount(prices: PriceRecord[], seats: number | null): number {
  return prices.reduce((total, price) => total + priceAmount(price, { seats }), 0);
}

/**
 * A checkout's subscription: active (or trialing) at once, or `incomplete` while its first payment waits for the
 * customer's confirmation; then created → updated, with no subscription.active until it is paid.
 */
export function createSubscription(
  ctx: SandboxContext,
  input: {
    checkout: CheckoutRecord;
    customer: CustomerRecord;
    product: ProductRecord;
    cardToken: string;
    discountId: string | null;
    firstPaymentPending: boolean;
  },
): SubscriptionRecord {
  const { checkout, customer, product } = input;
  const now = ctx.clock.now();
  const interval = product.recurring_interval ?? "month";
  const count = product.recurring_interval_count ?? 1;
  const trialInterval = checkout.allow_trial ? (checkout.trial_interval ?? product.trial_interval) : null;
  const trialCount = checkout.trial_interval_count ?? product.trial_interval_count ?? 1;
  const trialEnd = trialInterval ? addInterval(now, trialInterval, trialCount) : null;
  const prices = product.prices.filter((price) => !price.is_archived);
  const mainPrice = findPrice(ctx.store, checkout.product_price_id);
  const amount =
    mainPrice?.amount_type === "custom"
      ? priceAmount(mainPrice, { customAmount: checkout.custom_amount })
      : staticAmount(prices, checkout.seats);
  const subscription = ctx.store.put("subscription", {
    id: newId(),
    created_at: now.toISOString(),
    modified_at: null,
    amount,
    currency: mainPrice?.price_currency ?? "usd",
    recurring_interval: interval,
    recurring_interval_count: count,
    status: input.firstPaymentPending ? "incomplete" : trialEnd ? "trialing" : "active",
    current_period_start: now.toISOString(),
    current_period_end: (trialEnd ?? periodEnd(now, interval, count, 1)).toISOString(),
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
    cycle_anchor: null,
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
  if (subscription.status === "active")
    ctx.webhooks.emit("subscription.active", serializeSubscription(ctx, subscription));
  ctx.webhooks.emit("subscription.updated", serializeSubscription(ctx, subscription));
  return subscription;
}

function putSubscription(
  ctx: SandboxContext,
  subscription: SubscriptionRecord,
  changes: Partial<SubscriptionRecord>,
): SubscriptionRecord {
  return ctx.store.put("subscription", { ...subscription, ...changes, modified_at: ctx.clock.iso() });
}

const emitSubscription = (ctx: SandboxContext, subscription: SubscriptionRecord, ...types: string[]) => {
  for (const type of types) ctx.webhooks.emit(`subscription.${type}`, serializeSubscription(ctx, subscription));
};

const isEnded = (subscription: SubscriptionRecord) =>
  ["canceled", "unpaid", "incomplete_expired"].includes(subscription.status);

/** The customer's subscriptions that have not ended (incomplete and past_due ones included). */
export const liveSubscriptions = (ctx: SandboxContext, customerId: string) =>
  ctx.store.list("subscription", (subscription) => subscription.customer_id === customerId && !isEnded(subscription));

/** A change that names no proration behavior uses the organization's (subscription_settings.proration_behavior). */
const prorationBehavior = (ctx: SandboxContext, requested: ProrationBehavior | null | undefined): ProrationBehavior =>
  requested ?? ctx.organization.subscription_settings.proration_behavior;

export function cancelAtPeriodEnd(
  ctx: SandboxContext,
  subscription: SubscriptionRecord,
  reason: string | null,
  comment: string | null,
): SubscriptionRecord {
  if (isEnded(subscription) || subscription.cancel_at_period_end)
    throw forbidden(
      "AlreadyCanceledSubscription",
      "This subscription is already canceled or will be at the end of the period.",
    );
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
  const updated = putSubscription(ctx, subscription, {
    status: "canceled",
    cancel_at_period_end: false,
    canceled_at: now,
    ends_at: now,
    ended_at: now,
  });
  emitSubscription(ctx, updated, "updated", "canceled", "revoked");
  revokeGrants(
    ctx,
    activeGrants(ctx, (grant) => grant.subscription_id === subscription.id),
  );
  emitCustomerStateChanged(ctx, updated.customer_id);
  return updated;
}

/**
 * What a mid-period change costs: the new amount for the time left in the period, less the old amount for it.
 * A trialing subscription pays nothing for its trial, so its changes cost nothing, as at the provider.
 */
function prorationItems(
  ctx: SandboxContext,
  subscription: SubscriptionRecord,
  change: { newLabel: string; newAmount: number; newPriceId: string | null; oldLabel: string },
): OrderItemRecord[] {
  if (subscription.status === "trialing") return [];
  const remaining = remainingShare(ctx, subscription);
  return [
    itemFor(
      ctx,
      `Remaining time on ${change.newLabel}`,
      Math.round(change.newAmount * remaining),
      change.newPriceId,
      true,
    ),
    unusedItem(ctx, subscription, change.oldLabel, remaining),
  ];
}

/** The share of the current period still to come (0 to 1). */
function remainingShare(ctx: SandboxContext, subscription: SubscriptionRecord): number {
  const start = new Date(subscription.current_period_start).getTime();
  const end = new Date(subscription.current_period_end).getTime();
  return end > start ? Math.min(1, Math.max(0, (end - ctx.clock.now().getTime()) / (end - start))) : 0;
}

/** The credit for the part of the period paid for and not used. */
const unusedItem = (ctx: SandboxContext, subscription: SubscriptionRecord, label: string, remaining: number) =>
  itemFor(
    ctx,
    `Unused time on ${label}`,
    -Math.round(subscription.amount * remaining),
    subscription.price_ids[0] ?? null,
    true,
  );

/**
 * Where a change's items go. `prorate`: onto the next invoice. `invoice`: an order now for them and whatever was
 * waiting for the next invoice, when that comes to a charge; a credit stays for the next invoice instead (the
 * provider's customer balance).
 */
function settleProration(
  pending: OrderItemRecord[],
  items: OrderItemRecord[],
  behavior: ProrationBehavior,
): { pending: OrderItemRecord[]; charge: OrderItemRecord[] | null } {
  const all = [...pending, ...items];
  if (behavior === "prorate") return { pending: all, charge: null };
  const total = all.reduce((sum, item) => sum + item.amount, 0);
  return total > 0 ? { pending: [], charge: all } : { pending: all, charge: null };
}

/** A change's charge: a paid subscription_update order, with the discount of the cycle it bills. */
function chargeNow(ctx: SandboxContext, subscription: SubscriptionRecord, items: OrderItemRecord[]): void {
  createOrder(ctx, {
    customer: requireRecord(ctx.store, "customer", subscription.customer_id),
    productId: subscription.product_id,
    subscription,
    checkoutId: null,
    billingReason: "subscription_update",
    items,
    discount: cycleDiscount(ctx, subscription, new Date(subscription.current_period_start)),
    seats: subscription.seats,
    metadata: subscription.metadata,
    customFieldData: subscription.custom_field_data,
    paid: true,
  });
}

/** The update is made only if its immediate payment goes through, as at the provider. */
function assertChargeable(subscription: SubscriptionRecord, charge: OrderItemRecord[] | null): void {
  if (charge && subscription.card_token === DECLINED_TOKEN)
    throw forbidden("PaymentFailed", "The payment for this change was declined; the subscription is unchanged.");
}

/**
 * Switches the subscription to another recurring product, billing the prorated difference (see
 * `settleProration`). A change of billing interval always invoices (`prorate` has no next invoice of the old cycle
 * to carry the difference to): a new cycle starts now, charged in full less the unused part of the old one.
 * Seats follow the new price: kept (or its minimum) on a seat-based price, none on a fixed one.
 */
export function changeProduct(
  ctx: SandboxContext,
  subscription: SubscriptionRecord,
  productId: string,
  requested: ProrationBehavior | null | undefined,
): SubscriptionRecord {
  if (isEnded(subscription)) throw forbidden("AlreadyCanceledSubscription", "This subscription has ended.");
  const product = ctx.store.get("product", productId);
  if (!product || product.is_archived || !product.recurring_interval)
    throw validationError(["body", "product_id"], "The product must be an active recurring product.");
  const oldProduct = findProduct(ctx, subscription.product_id);
  const prices = product.prices.filter((price) => !price.is_archived);
  const tiers = prices.find((price) => price.amount_type === "seat_based")?.seat_tiers;
  const seats = tiers ? (subscription.seats ?? tiers.minimum_seats) : null;
  const newAmount = staticAmount(prices, seats);
  const count = product.recurring_interval_count ?? 1;
  const newCycle =
    subscription.status !== "trialing" &&
    (product.recurring_interval !== subscription.recurring_interval || count !== subscription.recurring_interval_count);
  const now = ctx.clock.now();
  const items = newCycle
    ? [
        itemFor(ctx, product.name, newAmount, prices[0]?.id ?? null),
        unusedItem(ctx, subscription, oldProduct.name, remainingShare(ctx, subscription)),
      ]
    : prorationItems(ctx, subscription, {
        newLabel: product.name,
        newAmount,
        newPriceId: prices[0]?.id ?? null,
        oldLabel: oldProduct.name,
      });
  const { pending, charge } = settleProration(
    subscription.pending_proration,
    items,
    newCycle ? "invoice" : prorationBehavior(ctx, requested),
  );
  assertChargeable(subscription, charge);
  const updated = putSubscription(ctx, subscription, {
    product_id: product.id,
    price_ids: prices.map((price) => price.id),
    amount: newAmount,
    seats,
    recurring_interval: product.recurring_interval,
    recurring_interval_count: count,
    pending_proration: pending,
    ...(newCycle
      ? {
          cycle_anchor: now.toISOString(),
          current_period_start: now.toISOString(),
          current_period_end: periodEnd(now, product.recurring_interval, count, 1).toISOString(),
        }
      : {}),
  });
  emitSubscription(ctx, updated, "updated");
  if (charge) chargeNow(ctx, updated, charge);
  const customer = requireRecord(ctx.store, "customer", subscription.customer_id);
  const kept = new Set(product.benefit_ids);
  revokeGrants(
    ctx,
    activeGrants(ctx, (grant) => grant.subscription_id === subscription.id && !kept.has(grant.benefit_id)),
  );
  const granted = new Set(
    activeGrants(ctx, (grant) => grant.subscription_id === subscription.id).map((grant) => grant.benefit_id),
  );
  grantBenefits(
    ctx,
    customer,
    { ...product, benefit_ids: product.benefit_ids.filter((id) => !granted.has(id)) },
    { subscriptionId: subscription.id, orderId: null },
  );
  emitCustomerStateChanged(ctx, customer.id);
  return ctx.store.get("subscription", subscription.id) ?? updated;
}

/**
 * Changes the number of seats of a subscription with a seat-based price, within the price's minimum and maximum,
 * and bills the difference like a product change: subscription.updated (→ order.created → order.updated →
 * order.paid with `invoice`) → customer.state_changed. The provider's messages, as 422s on `seats`.
 */
export function changeSeats(
  ctx: SandboxContext,
  subscription: SubscriptionRecord,
  seats: number,
  requested: ProrationBehavior | null | undefined,
): SubscriptionRecord {
  if (isEnded(subscription) || subscription.cancel_at_period_end)
    throw forbidden(
      "AlreadyCanceledSubscription",
      "This subscription is canceled or will be at the end of the period.",
    );
  const prices = pricesOf(ctx, subscription);
  const tiers = prices.find((price) => price.amount_type === "seat_based")?.seat_tiers;
  if (!tiers) throw validationError(["body", "seats"], "This subscription does not support seat-based pricing.");
  if (seats < tiers.minimum_seats)
    throw validationError(["body", "seats"], `Minimum ${tiers.minimum_seats} seats required.`);
  if (tiers.maximum_seats !== null && seats > tiers.maximum_seats)
    throw validationError(["body", "seats"], `Maximum ${tiers.maximum_seats} seats allowed.`);
  if (seats === subscription.seats) return subscription;
  const behavior = prorationBehavior(ctx, requested);
  const product = findProduct(ctx, subscription.product_id);
  const newAmount = staticAmount(prices, seats);
  const seatsLabel = (count: number | null) => `${product.name} (${count ?? tiers.minimum_seats} seats)`;
  const items = prorationItems(ctx, subscription, {
    newLabel: seatsLabel(seats),
    newAmount,
    newPriceId: subscription.price_ids[0] ?? null,
    oldLabel: seatsLabel(subscription.seats),
  });
  const { pending, charge } = settleProration(subscription.pending_proration, items, behavior);
  assertChargeable(subscription, charge);
  const updated = putSubscription(ctx, subscription, { seats, amount: newAmount, pending_proration: pending });
  emitSubscription(ctx, updated, "updated");
  if (charge) chargeNow(ctx, updated, charge);
  emitCustomerStateChanged(ctx, updated.customer_id);
  return updated;
}

/**
 * The subscription's discount, if it covers the cycle that starts at `cycleStart`: `forever` always, `once` the
 * first billed cycle only, `repeating` the cycles that start within its months of the first billed one. A cycle it
 * covers is discounted whole, including a change's charges within it.
 */
function cycleDiscount(
  ctx: SandboxContext,
  subscription: SubscriptionRecord,
  cycleStart: Date,
): DiscountRecord | undefined {
  const discount = subscription.discount_id ? ctx.store.get("discount", subscription.discount_id) : undefined;
  if (!discount || discount.duration === "forever") return discount;
  const first = firstBilled(subscription);
  const until = discount.duration === "once" ? first : addInterval(first, "month", discount.duration_in_months ?? 0);
  const covered = discount.duration === "once" ? cycleStart <= until : cycleStart < until;
  return covered ? discount : undefined;
}

/**
 * The credit an invoice cannot use up: the invoice comes to zero and the rest waits for the next one (the
 * provider's customer balance).
 */
function carryCredit(ctx: SandboxContext, items: OrderItemRecord[]): OrderItemRecord[] {
  const total = items.reduce((sum, item) => sum + item.amount, 0);
  if (total >= 0) return [];
  items.push(itemFor(ctx, "Credit carried to the next invoice", -total, null, true));
  return [itemFor(ctx, "Credit from the previous invoice", total, null, true)];
}

/**
 * One renewal: the period moves on, an order bills the new period plus last period's usage, and the
 * card on file pays it (subscription.cycled → updated → order.created → order.updated → order.paid →
 * benefit_grant.cycled → customer.state_changed) or is declined (→ updated → past_due).
 */
export function renewSubscription(ctx: SandboxContext, subscription: SubscriptionRecord): SubscriptionRecord {
  const customer = requireRecord(ctx.store, "customer", subscription.customer_id);
  const prices = pricesOf(ctx, subscription);
  const product = findProduct(ctx, subscription.product_id);
  const periodStart = new Date(subscription.current_period_end);
  const nextEnd = nextPeriodEnd(
    billingAnchor(subscription),
    subscription.recurring_interval,
    subscription.recurring_interval_count,
    periodStart,
  );

  const items: OrderItemRecord[] = [];
  for (const price of prices) {
    if (price.amount_type === "metered_unit") {
      const meter = ctx.store.get("meter", price.meter_id ?? "");
      if (!meter) continue;
      const usage = meteredCharge(price, meterBalanceForCustomer(ctx, customer, meter));
      if (usage > 0) items.push(itemFor(ctx, `${meter.name} usage`, usage, price.id));
    } else {
      const amount =
        price.amount_type === "custom" ? subscription.amount : priceAmount(price, { seats: subscription.seats });
      items.push(itemFor(ctx, product.name, amount, price.id));
    }
  }
  items.push(...subscription.pending_proration);
  const carried = carryCredit(ctx, items);
  const cycled = putSubscription(ctx, subscription, {
    status: subscription.status === "trialing" ? "active" : subscription.status,
    current_period_start: periodStart.toISOString(),
    current_period_end: nextEnd.toISOString(),
    pending_proration: carried,
  });
  emitSubscription(ctx, cycled, "cycled", "updated");
  const order = createOrder(ctx, {
    customer,
    productId: product.id,
    subscription: cycled,
    checkoutId: null,
    billingReason: "subscription_cycle",
    items,
    discount: cycleDiscount(ctx, cycled, periodStart),
    seats: cycled.seats,
    metadata: cycled.metadata,
    customFieldData: cycled.custom_field_data,
    paid: false,
  });
  const meteredMeters = prices.flatMap((price) => {
    const meter = price.amount_type === "metered_unit" ? ctx.store.get("meter", price.meter_id ?? "") : undefined;
    return meter ? [meter] : [];
  });
  const balancesBefore = new Map(
    meteredMeters.map((meter) => [meter.id, meterBalanceForCustomer(ctx, customer, meter)]),
  );
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

/** Ends a subscription that was set to cancel, at its period end: updated → canceled → revoked. */
export function endAtPeriodEnd(ctx: SandboxContext, subscription: SubscriptionRecord): void {
  const ended = putSubscription(ctx, subscription, {
    status: "canceled",
    ended_at: subscription.current_period_end,
    ends_at: subscription.current_period_end,
  });
  emitSubscription(ctx, ended, "updated", "canceled", "revoked");
  revokeGrants(
    ctx,
    activeGrants(ctx, (grant) => grant.subscription_id === subscription.id),
  );
  emitCustomerStateChanged(ctx, ended.customer_id);
}

/** After the dunning period a past_due subscription is retried once more: paid → active, else unpaid and revoked. */
export function settlePastDue(ctx: SandboxContext, subscription: SubscriptionRecord): void {
  const pending = ctx.store.list(
    "order",
    (order) => order.subscription_id === subscription.id && order.status === "pending",
  );
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

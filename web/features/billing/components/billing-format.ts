import { format, isAfter, parseISO } from "date-fns";
import type {
  BillingMeter,
  BillingSubscription,
  CancellationReason,
  ChangePreview,
  CheckoutProgress,
  Plan,
  PlanPrice,
  RecurringInterval,
  RefundReason,
} from "../../../../common/billing.schemas";
import type { BadgeTone } from "../../../components/ui/badge";

/**
 * The billing screens' wording and arithmetic, as pure functions: amounts are integers in the currency's minor
 * unit (cents), dates ISO strings. Money goes through Intl.NumberFormat, dates through date-fns.
 */

/** Digits after the decimal point in a currency (2 for USD and EUR, 0 for JPY). */
export function currencyDigits(currency: string, locale?: string): number {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** "$20.00" from 2000 cents; "¥500" from 500 yen. */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  const digits = currencyDigits(currency, locale);
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount / 10 ** digits);
}

/** A per-unit price given as a decimal string of minor units ("0.1" cents): "$0.001". */
export function formatUnitAmount(minorUnits: string, currency: string, locale?: string): string {
  const digits = currencyDigits(currency, locale);
  const value = Number(minorUnits) / 10 ** digits;
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits + 4,
  }).format(value);
}

/** "Mar 3, 2026". */
export function formatDate(value: string | Date): string {
  return format(typeof value === "string" ? parseISO(value) : value, "MMM d, yyyy");
}

export function intervalWord(interval: string): string {
  return interval === "year" ? "year" : interval === "month" ? "month" : interval;
}

/** "$20.00 / month", or "$15.00 per seat / month" for a per-seat price. */
export function formatPrice(
  price: Pick<PlanPrice, "amount" | "currency" | "interval" | "perSeat">,
  locale?: string,
): string {
  return `${formatMoney(price.amount, price.currency, locale)}${price.perSeat ? " per seat" : ""} / ${intervalWord(price.interval)}`;
}

/** The price of `seats` seats for a period: "$45.00 / month". */
export function formatSeatTotal(
  price: Pick<PlanPrice, "amount" | "currency" | "interval">,
  seats: number,
  locale?: string,
): string {
  return `${formatMoney(price.amount * seats, price.currency, locale)} / ${intervalWord(price.interval)}`;
}

export type StatusWording = { label: string; tone: BadgeTone };

/** The subscription's state in product words, for its badge: "Active", "Past due", "Cancels on Mar 3, 2026"… */
export function subscriptionStatus(subscription: BillingSubscription | null, now: Date = new Date()): StatusWording {
  if (!subscription) return { label: "Free", tone: "neutral" };
  const { status, cancelAtPeriodEnd } = subscription;
  if (status === "canceled") {
    const end = subscription.endsAt ?? subscription.canceledAt;
    if (end && isAfter(parseISO(end), now)) return { label: `Cancels on ${formatDate(end)}`, tone: "warning" };
    return end ? { label: `Access ended ${formatDate(end)}`, tone: "neutral" } : { label: "Canceled", tone: "neutral" };
  }
  if (cancelAtPeriodEnd && (status === "active" || status === "trialing")) {
    return { label: `Cancels on ${formatDate(subscription.endsAt ?? subscription.currentPeriodEnd)}`, tone: "warning" };
  }
  switch (status) {
    case "trialing":
      return { label: "Trialing", tone: "info" };
    case "active":
      return { label: "Active", tone: "success" };
    case "past_due":
      return { label: "Past due", tone: "danger" };
    case "unpaid":
      return { label: "Unpaid", tone: "danger" };
    case "incomplete":
      return { label: "Incomplete", tone: "warning" };
    case "incomplete_expired":
      return { label: "Expired", tone: "neutral" };
  }
  return { label: humanize(status), tone: "neutral" };
}

/**
 * Whether the organization has a subscription whose plan, seats or renewal can be changed (trialing, active,
 * past due, as the server decides); otherwise a plan is bought through a new checkout.
 */
export function hasChangeableSubscription(
  subscription: BillingSubscription | null,
): subscription is BillingSubscription {
  return (
    subscription !== null &&
    (subscription.status === "trialing" || subscription.status === "active" || subscription.status === "past_due")
  );
}

/** Whether the organization's owners and admins should be told to fix a failed payment. */
export function needsPaymentAttention(subscription: BillingSubscription | null): boolean {
  return subscription?.status === "past_due" || subscription?.status === "unpaid";
}

/**
 * The line under the plan name: what happens next and for how much. `canManage` words a failed payment for
 * whoever can fix it, or for members who cannot.
 */
export function renewalSentence(
  subscription: BillingSubscription | null,
  now: Date = new Date(),
  canManage = true,
): string {
  if (!subscription) return "Free forever, no card needed.";
  const amount = `${formatMoney(subscription.amount, subscription.currency)} / ${intervalWord(subscription.recurringInterval)}`;
  const periodEnd = formatDate(subscription.currentPeriodEnd);
  switch (subscription.status) {
    case "canceled": {
      const end = subscription.endsAt ?? subscription.canceledAt;
      if (end && isAfter(parseISO(end), now))
        return `Your plan stays active until ${formatDate(end)}, then moves to Free.`;
      return "This subscription has ended. The organization is on the Free plan's limits.";
    }
    case "incomplete":
      return "The first payment has not gone through yet.";
    case "incomplete_expired":
      return "The first payment never went through, so this subscription did not start.";
    case "past_due":
      return canManage
        ? `The last payment failed. We will retry it; update your payment method to keep ${amount}.`
        : "The last payment failed. An owner or admin needs to update the payment method to keep this plan.";
    case "unpaid":
      return canManage
        ? "Payments failed repeatedly. Update your payment method to restore the plan."
        : "Payments failed repeatedly. An owner or admin needs to update the payment method to restore the plan.";
  }
  if (subscription.cancelAtPeriodEnd)
    return `Your plan stays active until ${formatDate(subscription.endsAt ?? subscription.currentPeriodEnd)}, then moves to Free.`;
  if (subscription.status === "trialing") return `Your trial ends on ${periodEnd}, then ${amount}.`;
  return `Renews on ${periodEnd} for ${amount}.`;
}

const ORDER_STATUS_LABELS: Record<string, StatusWording> = {
  paid: { label: "Paid", tone: "success" },
  refunded: { label: "Refunded", tone: "neutral" },
  partially_refunded: { label: "Partially refunded", tone: "info" },
  pending: { label: "Pending", tone: "warning" },
};

export function orderStatus(status: string): StatusWording {
  return ORDER_STATUS_LABELS[status] ?? { label: humanize(status), tone: "neutral" };
}

const BILLING_REASON_LABELS: Record<string, string> = {
  purchase: "One-time purchase",
  subscription_create: "New subscription",
  subscription_cycle: "Renewal",
  subscription_update: "Plan change",
};

export function billingReasonLabel(reason: string): string {
  return BILLING_REASON_LABELS[reason] ?? humanize(reason);
}

export const CANCELLATION_REASON_LABELS: Record<CancellationReason, string> = {
  customer_service: "Customer service was not good enough",
  low_quality: "Quality was lower than expected",
  missing_features: "Features I need are missing",
  switched_service: "I switched to another service",
  too_complex: "It is too complicated to use",
  too_expensive: "It is too expensive",
  unused: "We do not use it enough",
  other: "Another reason",
};

export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  duplicate: "Duplicate charge",
  fraudulent: "Fraudulent charge",
  customer_request: "Customer asked for it",
  service_disruption: "Service disruption",
  satisfaction_guarantee: "Satisfaction guarantee",
  other: "Other",
};

const REFUND_STATUS_WORDS: Record<string, string> = {
  pending: "Pending",
  succeeded: "Succeeded",
  failed: "Failed",
  canceled: "Canceled",
};

export function refundStatusLabel(status: string): string {
  return REFUND_STATUS_WORDS[status] ?? humanize(status);
}

const SUBSCRIPTION_STATUS_WORDS: Record<string, string> = {
  trialing: "Trialing",
  active: "Active",
  past_due: "Past due",
  canceled: "Canceled",
  unpaid: "Unpaid",
  incomplete: "Incomplete",
  incomplete_expired: "Expired",
};

/** A status on its own (no dates), for lists: "Past due". */
export function subscriptionStatusWord(status: string | null): string {
  return status ? (SUBSCRIPTION_STATUS_WORDS[status] ?? humanize(status)) : "No subscription";
}

export function subscriptionStatusTone(status: string | null): BadgeTone {
  if (status === "active") return "success";
  if (status === "trialing") return "info";
  if (status === "past_due" || status === "unpaid") return "danger";
  if (status === "incomplete") return "warning";
  return "neutral";
}

const CARD_BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  american_express: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
};

/** "Visa ending in 4242". */
export function paymentMethodLabel(method: { brand: string; last4: string }): string {
  const brand = CARD_BRANDS[method.brand.toLowerCase()] ?? humanize(method.brand);
  return `${brand} ending in ${method.last4}`;
}

/** Whether the subscription's discount reduces its next invoice, by name. */
export function discountSentence(discount: { name: string; appliesToNextInvoice: boolean }): string {
  return discount.appliesToNextInvoice
    ? `Your discount "${discount.name}" applies to the next invoice.`
    : `Your discount "${discount.name}" has ended: the next invoice is at the full price.`;
}

/**
 * What a change costs, from its preview, in three sentences: what is charged when it is confirmed, the next
 * invoice (amount and date), and whether the subscription's discount still applies to it.
 */
export function previewSentences(preview: Pick<ChangePreview, "dueNow" | "nextInvoice" | "currency" | "discount">): {
  now: string;
  next: string;
  discount: string | null;
} {
  const money = (amount: number) => formatMoney(amount, preview.currency);
  const { discount, nextInvoice } = preview;
  return {
    now: preview.dueNow > 0 ? `You'll be charged ${money(preview.dueNow)} now.` : "Nothing is charged now.",
    next: `Your next invoice, on ${formatDate(nextInvoice.date)}, will be ${money(nextInvoice.amount)}.`,
    discount: discount
      ? discount.carriesOver
        ? `Your discount "${discount.name}" still applies to it.`
        : `Your discount "${discount.name}" does not apply to it.`
      : null,
  };
}

/** A meter's use this period, as a share of what the plan credits (0–100, capped). */
export function meterPercent(meter: Pick<BillingMeter, "consumed" | "credited">): number {
  if (meter.credited <= 0) return meter.consumed > 0 ? 100 : 0;
  return Math.min(100, Math.round((meter.consumed / meter.credited) * 100));
}

const integer = new Intl.NumberFormat();
export function formatCount(value: number): string {
  return integer.format(value);
}

/** A price the catalogue lists for `productId`, with its plan. */
export function findPrice(
  plans: Plan[],
  productId: string | null | undefined,
): { plan: Plan; price: PlanPrice } | undefined {
  if (!productId) return undefined;
  for (const plan of plans) {
    const price = plan.prices.find((candidate) => candidate.productId === productId);
    if (price) return { plan, price };
  }
  return undefined;
}

/** The price a plan card shows for the chosen interval, or the plan's only interval when it has just one. */
export function priceFor(plan: Plan, interval: RecurringInterval): PlanPrice | undefined {
  return plan.prices.find((price) => price.interval === interval) ?? plan.prices[0];
}

/** What a price comes to per month, for `seats` seats when it is per seat: to compare plans billed differently. */
export function monthlyEquivalent(
  price: Pick<PlanPrice, "amount" | "interval" | "perSeat" | "minSeats">,
  seats: number,
): number {
  const perPeriod = price.perSeat ? price.amount * Math.max(seats, price.minSeats ?? 1) : price.amount;
  return price.interval === "year" ? perPeriod / 12 : perPeriod;
}

/**
 * The words on a plan card's button, relative to what the organization pays now (per month, for the seats it uses):
 * the same plan at another interval is a switch of billing period, a dearer plan an upgrade, a cheaper one a switch.
 */
export function planActionLabel(
  current: { key: string; monthly: number },
  target: Plan,
  price: PlanPrice,
  seats: number,
): string {
  if (target.key === current.key) return `Switch to ${price.interval === "year" ? "yearly" : "monthly"} billing`;
  return monthlyEquivalent(price, seats) > current.monthly ? `Upgrade to ${target.name}` : `Switch to ${target.name}`;
}

/** What a return from the hosted checkout means, before (or instead of) following the checkout. */
export type CheckoutReturn =
  { kind: "follow"; checkoutId: string } | { kind: "declined" } | { kind: "expired" } | { kind: "not-completed" };

/**
 * `?checkout=<id>` follows that checkout; `?checkout=returned` (the buyer left the hosted page) reads the
 * organization's last checkout to say what happened, and follows it while it is not settled: a checkout stored as
 * open may have been declined or paid a moment ago, and only the provider's answer says so before its webhook lands.
 */
export function checkoutReturn(checkout: string, lastCheckout: CheckoutProgress | null): CheckoutReturn {
  if (checkout !== "returned") return { kind: "follow", checkoutId: checkout };
  if (!lastCheckout) return { kind: "not-completed" };
  if (lastCheckout.state === "declined") return { kind: "declined" };
  if (lastCheckout.state === "expired") return { kind: "expired" };
  return { kind: "follow", checkoutId: lastCheckout.id };
}

export const CHECKOUT_MESSAGES = {
  confirming: "Confirming your payment…",
  declined: "Your card was declined. Nothing was charged and your plan has not changed.",
  notCompleted: "Checkout was not completed. Nothing changed.",
  expired: "This checkout expired before it was paid. Nothing was charged and your plan has not changed.",
  slow: "Confirming your payment is taking longer than usual. If you were charged, your plan will update as soon as the payment provider confirms it.",
  completed: (planName: string) => `You are now on ${planName}`,
} as const;

/** Minor units from what a person typed in major units ("12.5" → 1250 for USD); NaN when it is not an amount. */
export function toMinorUnits(text: string, currency: string): number {
  const digits = currencyDigits(currency);
  const pattern = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
  const trimmed = text.trim();
  if (!pattern.test(trimmed)) return Number.NaN;
  const [whole = "0", fraction = ""] = trimmed.split(".");
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
}

/** An amount in minor units as a person types it in major units: 1250 → "12.50" (no symbol, no grouping). */
export function toMajorUnitsText(amount: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (amount / 10 ** digits).toFixed(digits);
}

/** "past_due" → "Past due": for a value the product has no word for yet. */
function humanize(value: string): string {
  const words = value.replace(/[_-]+/g, " ").trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : value;
}

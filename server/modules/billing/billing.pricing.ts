import {
  FREE_PLAN_LIMITS,
  type ChangePreview,
  type Plan,
  type PlanCatalogue,
  type PlanPrice,
} from "../../../common/billing.schemas";
import { ERROR_CODES } from "../../../common/error-codes";
import { DomainError } from "../../../common/domain-error";
import { limitsOf, planKeyOf, planNameOf } from "./billing.entitlements";
import type { models } from "./billing.provider";
import { isoText } from "./billing.projection";

/** Pure: the plans on offer, the price a plan is sold at, seat bounds and the proration of a change. No I/O. */

type Product = models.Product;
type PriceRecord = Record<string, unknown> & { amount_type: string; price_currency: string };
type SeatTiers = {
  tiers: Array<{ price_per_seat: number }>;
  minimum_seats?: number | null;
  maximum_seats?: number | null;
};

/** The recurring price a plan is sold at: its fixed or per-seat price (a metered price rides along). */
export function priceOf(product: Product): PlanPrice | null {
  const interval = product.recurring_interval;
  if (interval !== "month" && interval !== "year") return null;
  const prices = product.prices.filter((price) => !price.is_archived) as unknown as PriceRecord[];
  const metered = prices.find((price) => price.amount_type === "metered_unit");
  const meteredUnitAmount = metered ? String(metered.unit_amount) : null;
  const base = { productId: product.id, interval, meteredUnitAmount } as const;
  const fixed = prices.find((price) => price.amount_type === "fixed");
  if (fixed) {
    const amount = Number(fixed.price_amount);
    return { ...base, amount, currency: fixed.price_currency, perSeat: false, minSeats: null, maxSeats: null };
  }
  const seat = prices.find((price) => price.amount_type === "seat_based") as
    (PriceRecord & { seat_tiers: SeatTiers }) | undefined;
  if (seat) {
    return {
      ...base,
      amount: seat.seat_tiers.tiers[0]?.price_per_seat ?? 0,
      currency: seat.price_currency,
      perSeat: true,
      minSeats: seat.seat_tiers.minimum_seats ?? 1,
      maxSeats: seat.seat_tiers.maximum_seats ?? null,
    };
  }
  return null;
}

/** Whether a product may be bought or changed to: a paid plan with a recurring price, not the free one. */
export function isOffered(product: Product): boolean {
  return planKeyOf(product) !== "free" && priceOf(product) !== null;
}

/** The free plan, named after the merchant's free product when there is one. */
export function freePlan(product: Product | undefined): Plan {
  return {
    key: "free",
    name: product ? planNameOf(product) : "Free",
    description: product?.description ?? null,
    includes: [`Up to ${FREE_PLAN_LIMITS.members} members`, `Up to ${FREE_PLAN_LIMITS.teams} teams`],
    limits: { ...FREE_PLAN_LIMITS },
    prices: [],
  };
}

/**
 * The plans on offer from the provider's products: the free plan first, then one plan per `plan` key (its monthly
 * and yearly products together), in the order the merchant created them.
 */
export function planCatalogue(products: Product[]): PlanCatalogue {
  const families = new Map<string, Product[]>();
  for (const product of products) {
    const key = planKeyOf(product);
    families.set(key, [...(families.get(key) ?? []), product]);
  }
  const result: Plan[] = [freePlan(families.get("free")?.[0])];
  // The provider lists newest first.
  const byAge = [...families].sort(([, a], [, b]) => oldest(a).localeCompare(oldest(b)));
  for (const [key, family] of byAge) {
    if (key === "free") continue;
    const sorted = [...family].sort((a, b) => intervalRank(a.recurring_interval) - intervalRank(b.recurring_interval));
    const first = sorted[0] as Product;
    result.push({
      key,
      name: planNameOf(first),
      description: first.description,
      includes: [...new Set(sorted.flatMap((product) => product.benefits.map((benefit) => benefit.description)))],
      limits: limitsOf(first.benefits.map((benefit) => benefit.metadata)),
      prices: sorted.map(priceOf).filter((price): price is PlanPrice => price !== null),
    });
  }
  return { plans: result };
}

function oldest(products: Product[]): string {
  return products.map((product) => isoText(product.created_at) ?? "").sort()[0] ?? "";
}

function intervalRank(interval: string | null): number {
  return interval === "month" ? 0 : interval === "year" ? 1 : 2;
}

/** The seat count a checkout starts with: the one asked for, else enough for everyone already there. */
export function initialSeats(asked: number | undefined, used: number, price: PlanPrice): number {
  return asked ?? Math.max(price.minSeats ?? 1, used);
}

/** Throws 422 when a seat count is outside the price's bounds or below the seats already used. */
export function assertSeats(seats: number, used: number, price: PlanPrice | null): void {
  if (price?.minSeats != null && seats < price.minSeats) {
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, `Choose at least ${price.minSeats} seats.`);
  }
  if (price?.maxSeats != null && seats > price.maxSeats) {
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, `Choose at most ${price.maxSeats} seats.`);
  }
  if (seats < used) {
    throw new DomainError(
      ERROR_CODES.VALIDATION_ERROR,
      `Choose at least ${used} seats: members and pending invitations use ${used}. ` +
        "Remove members or cancel invitations first.",
    );
  }
}

/** What a subscription would cost per period on `price`: per seat, its seats (or the minimum). */
export function periodAmount(price: PlanPrice, seats: number | null | undefined): number {
  return price.perSeat ? price.amount * (seats ?? price.minSeats ?? 1) : price.amount;
}

/** The provider's clock: the latest time it stamped on the subscription, or now (the sandbox's clock may run ahead). */
export function providerNow(
  subscription: { modified_at: string | Date | null; created_at: string | Date },
  now = Date.now(),
): number {
  return Math.max(now, new Date(subscription.modified_at ?? subscription.created_at).getTime());
}

/** The share of a period still to come at `now` (0 to 1); a period already over (or empty) has none left. */
function remainingShare(periodStart: string | Date, periodEnd: string | Date | null, now: number): number {
  const start = new Date(periodStart).getTime();
  const end = new Date(periodEnd ?? periodStart).getTime();
  return end > start ? Math.min(1, Math.max(0, (end - now) / (end - start))) : 0;
}

/**
 * The provider's proration: the new price for the rest of the period, less the unused part of the current one
 * (each rounded to the currency's minor unit). A period already over (or empty) leaves nothing to prorate.
 */
export function prorationAmount(change: {
  currentAmount: number;
  newAmount: number;
  periodStart: string | Date;
  periodEnd: string | Date | null;
  now: number;
}): number {
  const remaining = remainingShare(change.periodStart, change.periodEnd, change.now);
  return Math.round(change.newAmount * remaining) - Math.round(change.currentAmount * remaining);
}

/** A discount as the provider states it on a subscription. */
export type DiscountTerms = {
  name: string;
  type: "percentage" | "fixed";
  basisPoints: number;
  amount: number;
  duration: "once" | "forever" | "repeating";
  durationInMonths: number;
};

/** Calendar months or years later, in UTC, on the same day or the month's last (Jan 31 + 1 month = Feb 28). */
export function addPeriods(from: Date, interval: "month" | "year", count: number): Date {
  const day = from.getUTCDate();
  const result = new Date(from.getTime());
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + (interval === "year" ? 12 * count : count));
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/**
 * Whether a discount covers the billing cycle starting at `cycleStart`: `forever` always, `once` the first billed
 * cycle, `repeating` the cycles that start within its months of the first billed one (the provider's rule).
 */
export function discountCovers(discount: DiscountTerms, firstBilled: Date, cycleStart: Date): boolean {
  if (discount.duration === "forever") return true;
  if (discount.duration === "once") return cycleStart.getTime() <= firstBilled.getTime();
  return cycleStart.getTime() < addPeriods(firstBilled, "month", discount.durationInMonths).getTime();
}

/** What a discount takes off an amount (nothing off a credit). */
export function discountAmount(discount: DiscountTerms, amount: number): number {
  const base = Math.max(0, amount);
  return discount.type === "percentage"
    ? Math.round((base * discount.basisPoints) / 10_000)
    : Math.min(base, discount.amount);
}

export type ChangeQuote = Pick<ChangePreview, "dueNow" | "nextInvoice" | "discount" | "lines">;

/**
 * What a change of plan, interval or seats is charged, as the provider documents it. `invoice`: the prorated
 * difference is charged now; `prorate`: it goes onto the next invoice. A change of billing interval always
 * invoices and starts a new cycle now: the new price in full, less the unused part of the current period. A
 * credit is never paid out: it is taken off the next invoice. The discount applies to the charges of the cycles it
 * covers. During a trial nothing is prorated.
 */
export function quoteChange(change: {
  current: {
    amount: number;
    interval: string;
    label: string;
    periodStart: string | Date;
    periodEnd: string | Date;
    trialing: boolean;
    firstBilled: Date;
  };
  target: { amount: number; interval: "month" | "year"; label: string };
  behavior: "invoice" | "prorate";
  discount: DiscountTerms | null;
  now: number;
}): ChangeQuote {
  const { current, target, discount, now } = change;
  const newCycle = !current.trialing && target.interval !== current.interval;
  const remaining = current.trialing ? 0 : remainingShare(current.periodStart, current.periodEnd, now);
  const lines: ChangePreview["lines"] = [];
  const line = (label: string, amount: number, on: "now" | "nextInvoice") => {
    if (amount !== 0) lines.push({ label, amount, on });
  };
  const items = newCycle
    ? [
        { label: target.label, amount: target.amount },
        { label: `Unused time on ${current.label}`, amount: -Math.round(current.amount * remaining) },
      ]
    : [
        { label: `Remaining time on ${target.label}`, amount: Math.round(target.amount * remaining) },
        { label: `Unused time on ${current.label}`, amount: -Math.round(current.amount * remaining) },
      ];
  const difference = items.reduce((sum, item) => sum + item.amount, 0);
  const chargedNow = (newCycle || change.behavior === "invoice") && difference > 0;
  const cycleStart = newCycle ? new Date(now) : new Date(current.periodStart);
  let dueNow = 0;
  if (chargedNow) {
    for (const item of items) line(item.label, item.amount, "now");
    const off =
      discount && discountCovers(discount, current.firstBilled, cycleStart) ? discountAmount(discount, difference) : 0;
    if (discount) line(discount.name, -off, "now");
    dueNow = difference - off;
  }
  const nextDate = newCycle ? addPeriods(cycleStart, target.interval, 1) : new Date(current.periodEnd);
  line(target.label, target.amount, "nextInvoice");
  const carried = chargedNow ? 0 : difference;
  if (!chargedNow) for (const item of items) line(item.label, item.amount, "nextInvoice");
  const subtotal = Math.max(0, target.amount + carried);
  const carriesOver = discount !== null && discountCovers(discount, current.firstBilled, nextDate);
  const off = discount && carriesOver ? discountAmount(discount, subtotal) : 0;
  if (discount) line(discount.name, -off, "nextInvoice");
  return {
    dueNow,
    nextInvoice: { amount: subtotal - off, date: nextDate.toISOString() },
    discount: discount ? { name: discount.name, carriesOver } : null,
    lines,
  };
}

/** The terms of a subscription's discount, from the provider's object (null without one). */
export function discountTerms(discount: unknown): DiscountTerms | null {
  if (!discount || typeof discount !== "object") return null;
  const wire = discount as Record<string, unknown>;
  return {
    name: String(wire.name),
    type: wire.type === "fixed" ? "fixed" : "percentage",
    basisPoints: Number(wire.basis_points ?? 0),
    amount: Number(wire.amount ?? 0),
    duration: wire.duration === "once" || wire.duration === "forever" ? wire.duration : "repeating",
    durationInMonths: Number(wire.duration_in_months ?? 0),
  };
}

/** A subscription's discount, and whether it covers the cycle its next invoice opens. */
export function nextInvoiceDiscount(subscription: {
  discount?: unknown;
  trial_end?: string | Date | null;
  started_at?: string | Date | null;
  created_at: string | Date;
  current_period_end?: string | Date | null;
}): { name: string; appliesToNextInvoice: boolean } | null {
  const terms = discountTerms(subscription.discount);
  if (!terms) return null;
  const firstBilled = new Date(subscription.trial_end ?? subscription.started_at ?? subscription.created_at);
  const next = new Date(subscription.current_period_end ?? subscription.created_at);
  return { name: terms.name, appliesToNextInvoice: discountCovers(terms, firstBilled, next) };
}

import { eventNamesOf } from "./billing.catalogue";
import type { models } from "./billing.provider";

/** Pure: which events each meter counts, and the overage estimate. No I/O. */

type MeteredPrice = {
  amount_type: string;
  meter_id?: string;
  unit_amount?: string | number;
  cap_amount?: number | null;
};

/** The event names each of the subscription's meters counts, by meter id. */
export function meterEventNames(subscription: Pick<models.Subscription, "meters">): Map<string, string[]> {
  return new Map((subscription.meters ?? []).map((meter) => [meter.meter_id, eventNamesOf(meter.meter.filter)]));
}

/** The meters (by id) that count an event name. */
export function metersCounting(meters: ReadonlyMap<string, readonly string[]>, eventName: string): string[] {
  return [...meters].filter(([, names]) => names.includes(eventName)).map(([meterId]) => meterId);
}

/** The quantity of the given events: what a meter counting them has seen of `quantities` (by event name). */
export function countedBy(eventNames: readonly string[], quantities: ReadonlyMap<string, number>): number {
  return eventNames.reduce((sum, name) => sum + (quantities.get(name) ?? 0), 0);
}

/**
 * What the usage above the included quantity will add to the next invoice, in cents: the units over times the
 * meter's unit price (a decimal number of cents), at most the price's cap. Null when the plan has no price for it.
 */
export function overageEstimate(
  product: Pick<models.Product, "prices">,
  meterId: string,
  units: number,
): number | null {
  const price = (product.prices as unknown as MeteredPrice[]).find(
    (candidate) => candidate.amount_type === "metered_unit" && candidate.meter_id === meterId,
  );
  if (!price) return null;
  const amount = Math.round(Math.max(0, units) * Number(price.unit_amount ?? 0));
  return price.cap_amount == null ? amount : Math.min(amount, price.cap_amount);
}

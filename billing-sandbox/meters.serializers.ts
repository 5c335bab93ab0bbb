import type { SandboxContext } from "./context";
import { meterBalanceForCustomer } from "./meters.service";
import type { MeterRecord, PriceRecord, SubscriptionRecord } from "./records";
import { findPrice, meteredCharge, requireRecord, stableId, type Json } from "./shared";

/** Meter. */
export function serializeMeter(ctx: SandboxContext, meter: MeterRecord): Json {
  return { ...meter, organization_id: ctx.organization.id };
}

/** The meter as the portal nests it in its meter objects: id, dates and name. */
export function serializeMeterSummary(meter: MeterRecord): Json {
  return { id: meter.id, created_at: meter.created_at, modified_at: meter.modified_at, name: meter.name };
}

export function subscriptionPrices(ctx: SandboxContext, subscription: SubscriptionRecord): PriceRecord[] {
  return subscription.price_ids
    .map((id) => findPrice(ctx.store, id))
    .filter((price): price is PriceRecord => Boolean(price));
}

/** SubscriptionMeter entries: usage of each metered price in the current period, with the Meter when `withMeter`. */
export function serializeSubscriptionMeters(
  ctx: SandboxContext,
  subscription: SubscriptionRecord,
  withMeter: boolean,
): Json[] {
  return subscriptionPrices(ctx, subscription)
    .filter((price) => price.amount_type === "metered_unit")
    .map((price) => {
      const meter = requireRecord(ctx.store, "meter", price.meter_id ?? "");
      const balance = meterBalanceForCustomer(
        ctx,
        requireRecord(ctx.store, "customer", subscription.customer_id),
        meter,
      );
      const entry: Json = {
        id: stableId(subscription.id, meter.id),
        created_at: subscription.created_at,
        modified_at: null,
        consumed_units: balance.consumed,
        credited_units: balance.credited,
        amount: meteredCharge(price, balance),
        meter_id: meter.id,
      };
      return withMeter ? { ...entry, meter: serializeMeter(ctx, meter) } : entry;
    });
}

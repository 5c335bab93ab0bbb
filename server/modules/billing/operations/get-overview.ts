import type { BillingMeter, BillingOverview } from "../../../../common/billing.schemas";
import { rolesAllow } from "../../../../common/permissions";
import { countSeats } from "../../organizations";
import type { BillingContext, MeterCatalogue } from "../billing.context";
import { entitlementsFrom, freePlanSummary, planKeyOf, planNameOf } from "../billing.entitlements";
import { nextInvoiceDiscount } from "../billing.pricing";
import { isoText, stateOf, toOrder, toSubscription } from "../billing.projection";
import type { models } from "../billing.provider";
import * as repository from "../billing.repository";
import { overageEstimate } from "../billing.usage";
import { findCurrentSubscription } from "./find-current-subscription";
import { checkoutProgressOf } from "./get-checkout-progress";

/** How long after a checkout started the overview still reports its progress. */
const LAST_CHECKOUT_WINDOW_MS = 3_600_000;

/**
 * The organization's billing page, from the stored projection; the provider's meter list (cached) only names a meter
 * the subscription does not.
 */
export async function getOverview(
  deps: Pick<BillingContext, "db" | "meters">,
  scope: repository.BillingScope,
  roles: string[],
): Promise<BillingOverview> {
  const { db } = deps;
  const subscription = await findCurrentSubscription(db, scope);
  const periodStart = isoText(subscription?.current_period_start);
  const [customer, orders, used, checkouts, usageCounts] = await Promise.all([
    repository.findCustomer(db, scope),
    repository.listObjects<models.Order>(db, scope, "order", 24),
    countSeats(db, scope),
    repository.listObjects<models.Checkout>(db, scope, "checkout", 1),
    periodStart ? repository.findUsageCounts(db, scope, periodStart) : new Map<string, number>(),
  ]);
  const state = stateOf(customer);
  const entitlements = entitlementsFrom(state, subscription);
  const lastCheckout = checkouts[0];
  return {
    plan: subscription
      ? {
          key: planKeyOf(subscription.product),
          name: planNameOf(subscription.product),
          productId: subscription.product_id,
        }
      : freePlanSummary(),
    subscription: subscription ? toSubscription(subscription, nextInvoiceDiscount(subscription)) : null,
    entitlements,
    seats: { used, limit: entitlements.limits.members },
    meters: await metersOf(deps.meters, state, subscription, usageCounts),
    orders: orders.map(toOrder),
    paymentMethod: customer?.payment_method
      ? (JSON.parse(customer.payment_method) as { brand: string; last4: string })
      : null,
    canManage: rolesAllow(roles.join(","), { billing: ["manage"] }),
    syncedAt: customer?.synced_at ? new Date(customer.synced_at).toISOString() : null,
    lastCheckout:
      lastCheckout && Date.now() - new Date(lastCheckout.created_at).getTime() < LAST_CHECKOUT_WINDOW_MS
        ? await checkoutProgressOf(db, scope, lastCheckout)
        : null,
  };
}

/**
 * The customer's meters, with the app's running count where it is ahead of the provider's and the overage estimate.
 * The state has only their ids: they are named after the subscription's metered prices and meters, else after the
 * provider's meters (a plan can credit a meter it has no price for, as Team does), else by id while the provider
 * cannot tell.
 */
async function metersOf(
  catalogue: MeterCatalogue,
  state: models.CustomerState | undefined,
  subscription: models.Subscription | undefined,
  usageCounts: ReadonlyMap<string, number>,
): Promise<BillingMeter[]> {
  const meteredPrices = (subscription?.product.prices ?? []) as unknown as Array<{
    meter?: { id: string; name: string };
  }>;
  const meterNames = new Map([
    ...meteredPrices.flatMap((price) => (price.meter ? [[price.meter.id, price.meter.name] as const] : [])),
    ...(subscription?.meters ?? []).map((meter) => [meter.meter_id, meter.meter.name] as const),
  ]);
  const active = state?.active_meters ?? [];
  const providerNames = active.some((meter) => !meterNames.has(meter.meter_id)) ? await catalogue.names() : undefined;
  return active.map((meter) => {
    // The provider's count, or the app's running count when it is ahead (records the provider has not counted yet).
    const consumed = Math.max(meter.consumed_units, usageCounts.get(meter.meter_id) ?? 0);
    const over = Math.max(0, consumed - meter.credited_units);
    return {
      meterId: meter.meter_id,
      name: meterNames.get(meter.meter_id) ?? providerNames?.get(meter.meter_id) ?? meter.meter_id,
      consumed,
      credited: meter.credited_units,
      remaining: meter.credited_units - consumed,
      overageEstimate: subscription ? overageEstimate(subscription.product, meter.meter_id, over) : null,
    };
  });
}

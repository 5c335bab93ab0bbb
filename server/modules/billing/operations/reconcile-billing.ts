import type { BillingContext } from "../billing.context";
import { callProvider, isNotFound, toProviderError, type models } from "../billing.provider";
import { isoText } from "../billing.projection";
import * as repository from "../billing.repository";
import { countedBy, meterEventNames } from "../billing.usage";
import { findProviderCustomer } from "./ensure-customer";
import { findCurrentSubscription } from "./find-current-subscription";
import { refreshPaymentMethod } from "./refresh-payment-method";
import { saveProviderObject } from "./save-provider-object";
import { storeCustomerState } from "./store-customer-state";

type Deps = Pick<BillingContext, "db" | "provider">;

/**
 * Re-reads the organization's state at the provider and stores it: customer state (benefits, meters),
 * subscriptions, orders and the card. Heals webhooks that never arrived; safe to run any time.
 */
export async function reconcileBilling(deps: Deps, scope: repository.BillingScope): Promise<{ customer: boolean }> {
  const { db } = deps;
  const client = deps.provider();
  const customerId =
    (await repository.findCustomer(db, scope))?.customer_id ?? (await findProviderCustomer(deps, scope));
  if (!customerId) return { customer: false };
  const external = { external_customer_id: scope.organizationId, limit: 100 };
  let state: models.CustomerState;
  try {
    state = await client.customers.getStateExternal(scope.organizationId);
  } catch (error) {
    if (isNotFound(error)) {
      await repository.forgetCustomer(db, scope);
      return { customer: false };
    }
    throw toProviderError("read the customer state", error);
  }
  await storeCustomerState(db, scope, state, undefined);
  const [subscriptions, orders] = await Promise.all([
    callProvider("list subscriptions", () => client.subscriptions.list(external)),
    callProvider("list orders", () => client.orders.list(external)),
  ]);
  for (const subscription of subscriptions.items) await saveProviderObject(db, scope, "subscription", subscription);
  await reconcileUsageCounts(db, scope, state);
  for (const order of orders.items) await saveProviderObject(db, scope, "order", order);
  await callProvider("read the payment method", () => refreshPaymentMethod(deps, scope));
  return { customer: true };
}

/**
 * The app's running count of each meter this period becomes the provider's count plus what is still queued for it,
 * so records the provider refused for good stop counting and usage reported elsewhere starts to.
 */
async function reconcileUsageCounts(
  db: Deps["db"],
  scope: repository.BillingScope,
  state: models.CustomerState,
): Promise<void> {
  const subscription = await findCurrentSubscription(db, scope);
  const periodStart = isoText(subscription?.current_period_start);
  if (!subscription || !periodStart) return;
  const meters = meterEventNames(subscription);
  const pending = await repository.findPendingUsage(db, scope);
  const counts = new Map(
    state.active_meters.map((meter) => [
      meter.meter_id,
      meter.consumed_units + countedBy(meters.get(meter.meter_id) ?? [], pending),
    ]),
  );
  await repository.setUsageCounts(db, scope, periodStart, counts);
}

/** Every organization with a provider customer, one after the other; a failure is logged and the rest go on. */
export async function reconcileAllBilling(
  deps: Deps & Pick<BillingContext, "logger">,
): Promise<{ reconciled: number; failed: number }> {
  let reconciled = 0;
  let failed = 0;
  for (const organizationId of await repository.listBilledOrganizationIds(deps.db)) {
    try {
      await reconcileBilling(deps, { organizationId });
      reconciled++;
    } catch (error) {
      failed++;
      const message = error instanceof Error ? error.message : String(error);
      deps.logger.warn("billing: reconciliation failed", { organizationId, error: message });
    }
  }
  return { reconciled, failed };
}

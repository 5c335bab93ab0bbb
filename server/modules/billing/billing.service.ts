import type { Kysely } from "kysely";
import type {
  ChangePreviewQuery,
  CheckoutBody,
  LimitedResource,
  OperatorCancellationBody,
  RefundBody,
  SubscriptionChangeBody,
  UsageBody,
} from "../../../common/billing.schemas";
import type { Database } from "../../db/schema";
import type { Logger } from "../../logger";
import type { AuditContext } from "../audit";
import { createMeterCatalogue, createProductCatalogue } from "./billing.catalogue";
import { requireProvider, type BillingContext } from "./billing.context";
import type { ProviderObject } from "./billing.projection";
import type { models, ProviderClient } from "./billing.provider";
import type { BillingScope, ObjectKind } from "./billing.repository";
import { assertWithinLimit } from "./operations/assert-within-limit";
import { changeSubscription } from "./operations/change-subscription";
import { endSubscription } from "./operations/end-subscription";
import { getCheckoutProgress } from "./operations/get-checkout-progress";
import { getOverview } from "./operations/get-overview";
import { listOrganizationPlans } from "./operations/list-organization-plans";
import { listPlans } from "./operations/list-plans";
import { listRefunds } from "./operations/list-refunds";
import { openPortal } from "./operations/open-portal";
import { previewChange } from "./operations/preview-change";
import { reconcileAllBilling, reconcileBilling } from "./operations/reconcile-billing";
import { recordUsage } from "./operations/record-usage";
import { refreshPaymentMethod } from "./operations/refresh-payment-method";
import { refundOrder } from "./operations/refund-order";
import { releaseOrganization } from "./operations/release-organization";
import { saveProviderObject } from "./operations/save-provider-object";
import { startCheckout } from "./operations/start-checkout";
import { storeCustomerState } from "./operations/store-customer-state";

/**
 * What the module needs: the app's database, the provider client (null when billing is not configured), where the
 * app is reachable.
 */
export type BillingDeps = {
  db: Kysely<Database>;
  provider: ProviderClient | null;
  baseUrl: string;
  logger: Logger;
  /** Wakes the billing worker: a webhook or usage record is waiting. */
  nudge: () => void;
};

export type Billing = ReturnType<typeof createBilling>;

/**
 * The billing module's operations, bound to their dependencies: each is a use case in operations/ (one per file),
 * with the pure rules in billing.entitlements.ts and billing.pricing.ts. Authorization (membership, the `billing`
 * permission) happens in the routes.
 */
export function createBilling(deps: BillingDeps) {
  const { db } = deps;
  const provider = () => requireProvider(deps.provider);
  const isConfigured = deps.provider !== null;
  const context: BillingContext = {
    ...deps,
    isConfigured,
    provider,
    catalogue: createProductCatalogue(provider),
    meters: createMeterCatalogue(provider, deps.logger),
  };
  const scope = (organizationId: string): BillingScope => ({ organizationId });

  return {
    plans: () => listPlans(context),
    plansOf: (organizationIds: string[]) => listOrganizationPlans(db, organizationIds),
    overview: (organizationId: string, roles: string[]) => getOverview(context, scope(organizationId), roles),
    startCheckout: (organizationId: string, body: CheckoutBody, audit: AuditContext) =>
      startCheckout(context, scope(organizationId), body, audit),
    checkoutProgress: (organizationId: string, checkoutId: string) =>
      getCheckoutProgress(context, scope(organizationId), checkoutId),
    previewChange: (organizationId: string, query: ChangePreviewQuery) =>
      previewChange(context, scope(organizationId), query),
    changeSubscription: (organizationId: string, roles: string[], body: SubscriptionChangeBody, audit: AuditContext) =>
      changeSubscription(context, scope(organizationId), roles, body, audit),
    portal: (organizationId: string) => openPortal(context, scope(organizationId)),
    recordUsage: (organizationId: string, body: UsageBody, audit: AuditContext) =>
      recordUsage(context, scope(organizationId), body, audit),
    reconcile: (organizationId: string) => reconcileBilling(context, scope(organizationId)),
    reconcileAll: () => reconcileAllBilling(context),
    refund: (organizationId: string, body: RefundBody, audit: AuditContext) =>
      refundOrder(context, scope(organizationId), body, audit),
    refunds: (organizationId: string) => listRefunds(db, scope(organizationId)),
    endSubscription: (organizationId: string, body: OperatorCancellationBody, audit: AuditContext) =>
      endSubscription(context, scope(organizationId), body, audit),
    assertWithinLimit: (
      organizationId: string,
      resource: LimitedResource,
      adding: number | ((trx: Kysely<Database>) => Promise<number>),
    ) => assertWithinLimit(context, scope(organizationId), resource, adding),
    releaseOrganization: (organizationId: string) => releaseOrganization(context, scope(organizationId)),
    /** For the webhooks: stores a customer state (in the delivery's transaction when `database` is given). */
    storeState: (
      organizationId: string,
      state: models.CustomerState,
      at: string | undefined,
      database: Kysely<Database> = db,
    ) => storeCustomerState(database, scope(organizationId), state, at),
    /** For the webhooks: stores a provider object in the projection unless a newer copy is stored. */
    saveObject: (kind: ObjectKind, organizationId: string, object: ProviderObject, database: Kysely<Database> = db) =>
      saveProviderObject(database, scope(organizationId), kind, object),
    refreshPaymentMethod: (organizationId: string) => refreshPaymentMethod(context, scope(organizationId)),
    provider,
    /** False on a deployment without a billing provider: the billing endpoints answer 404 BILLING_NOT_CONFIGURED. */
    isConfigured,
  };
}

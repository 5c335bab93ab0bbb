export { adminBillingRoutes, billingRoutes, type AdminBillingRoutes, type BillingRoutes } from "./billing.routes";
export { createProviderClient, isProviderUnavailable } from "./billing.provider";
export {
  claimUsageEvents,
  findDueUsageEvents,
  findDueWebhookEvents,
  markUsageRetry,
  markUsageSent,
  markWebhookRetry,
  purgeHandledBefore,
} from "./billing.queues.repository";
export { createBilling, type Billing, type BillingDeps } from "./billing.service";
export { applyWebhookEvent } from "./billing.webhooks";
export { billingBacklogMetrics } from "./billing.metrics";

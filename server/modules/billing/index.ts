export { adminBillingRoutes, billingRoutes, type AdminBillingRoutes, type BillingRoutes } from "./billing.routes";
export { billingRules } from "./billing.plugin";
export { createProviderClient, isProviderUnavailable } from "./billing.provider";
export { findDueUsageEvents, findDueWebhookEvents, finishWebhookEvent, markUsageRetry, markUsageSent, purgeHandledBefore } from "./billing.repository";
export { createBilling, type Billing, type BillingDeps } from "./billing.service";
export { applyWebhookEvent } from "./billing.webhooks";

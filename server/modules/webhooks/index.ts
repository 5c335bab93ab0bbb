export { webhookRoutes, type WebhookRoutes } from "./webhooks.routes";
export { devWebhookRoutes } from "./dev-webhooks.routes";
export { publishOrganizationChanges, queueWebhookEvent, type WebhookEvent } from "./webhooks.events";
export { claimMessage, findDueHeads, type ClaimedMessage } from "./webhooks.repository";
export {
  deliverMessage,
  DELIVERY_TIMEOUT_MS,
  DISABLE_AFTER_FAILING_MS,
  RETRY_SCHEDULE_MS,
  type DeliveryOptions,
} from "./webhooks.delivery";
export { purgeDevWebhookReceipts, purgeWebhookHistory } from "./webhooks.service";
export type { AddressPolicy } from "./webhooks.address";

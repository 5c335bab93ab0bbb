import type { SandboxContext } from "./context";
import type { WebhookDeliveryRecord, WebhookEndpointRecord, WebhookEventRecord } from "./records";
import type { Json } from "./shared";

/** WebhookEndpoint. */
export const serializeEndpoint = (ctx: SandboxContext, endpoint: WebhookEndpointRecord): Json => ({
  ...endpoint,
  organization_id: ctx.organization.id,
});

/** WebhookEvent. */
export const serializeEvent = (event: WebhookEventRecord): Json => ({
  id: event.id,
  created_at: event.created_at,
  modified_at: event.modified_at,
  last_http_code: event.last_http_code,
  succeeded: event.succeeded,
  skipped: false,
  payload: event.payload,
  type: event.type,
  is_archived: false,
});

/** WebhookDelivery, with the event it delivered. */
export const serializeDelivery = (delivery: WebhookDeliveryRecord, event: WebhookEventRecord): Json => ({
  id: delivery.id,
  created_at: delivery.created_at,
  modified_at: delivery.modified_at,
  succeeded: delivery.succeeded,
  http_code: delivery.http_code,
  response: delivery.response,
  webhook_event: serializeEvent(event),
});

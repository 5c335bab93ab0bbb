import type { SandboxContext } from "./context";
import type { WebhookEndpointRecord } from "./records";
import { findRecord, newId, newToken } from "./shared";

/** Webhook endpoints; the dispatcher (webhook-dispatcher.ts) stores, signs, delivers, retries and prunes their events. */

export const findEndpoint = (ctx: SandboxContext, id: string): WebhookEndpointRecord =>
  findRecord(ctx.store, "webhook_endpoint", id);

export function createWebhookEndpoint(
  ctx: SandboxContext,
  input: { url: string; secret?: string | null; name?: string | null; events: string[] },
): WebhookEndpointRecord {
  return ctx.store.put("webhook_endpoint", {
    id: newId(),
    created_at: ctx.clock.iso(),
    modified_at: null,
    url: input.url,
    name: input.name ?? null,
    format: "raw",
    secret: input.secret ?? newToken("whsec_"),
    events: input.events,
    enabled: true,
  });
}

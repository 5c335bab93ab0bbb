import { notFound, readJson } from "./api-errors";
import type { SandboxContext } from "./context";
import { newRouter, paginate, queryList } from "./http";
import type { WebhookEventRecord } from "./records";
import { webhookEndpointCreateSchema, webhookEndpointUpdateSchema } from "./schemas";
import { newToken } from "./shared";
import { serializeDelivery, serializeEndpoint } from "./webhooks.serializers";
import { createWebhookEndpoint, findEndpoint } from "./webhooks.service";

/** Webhook endpoints, the delivery log, and redelivery. */

export function webhookRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/endpoints", (c) =>
    c.json(paginate(c, ctx.store.list("webhook_endpoint"), (endpoint) => serializeEndpoint(ctx, endpoint))),
  );
  router.post("/endpoints", async (c) => {
    const input = await readJson(c, webhookEndpointCreateSchema);
    return c.json(serializeEndpoint(ctx, createWebhookEndpoint(ctx, input)), 201);
  });
  router.get("/endpoints/:id", (c) => c.json(serializeEndpoint(ctx, findEndpoint(ctx, c.req.param("id")))));
  router.patch("/endpoints/:id", async (c) => {
    const endpoint = findEndpoint(ctx, c.req.param("id"));
    const input = await readJson(c, webhookEndpointUpdateSchema);
    const updated = ctx.store.put("webhook_endpoint", {
      ...endpoint,
      url: input.url ?? endpoint.url,
      name: input.name === undefined ? endpoint.name : input.name,
      secret: input.secret ?? endpoint.secret,
      events: input.events ?? endpoint.events,
      enabled: input.enabled ?? endpoint.enabled,
      modified_at: ctx.clock.iso(),
    });
    return c.json(serializeEndpoint(ctx, updated));
  });
  router.patch("/endpoints/:id/secret", (c) => {
    const endpoint = findEndpoint(ctx, c.req.param("id"));
    return c.json(
      serializeEndpoint(
        ctx,
        ctx.store.put("webhook_endpoint", { ...endpoint, secret: newToken("whsec_"), modified_at: ctx.clock.iso() }),
      ),
    );
  });
  router.delete("/endpoints/:id", (c) => {
    const endpoint = findEndpoint(ctx, c.req.param("id"));
    ctx.store.put("webhook_endpoint", { ...endpoint, enabled: false, modified_at: ctx.clock.iso() });
    return c.body(null, 204);
  });

  router.get("/deliveries", (c) => {
    const endpointIds = queryList(c, "endpoint_id");
    const events = new Map(ctx.store.list("webhook_event").map((event) => [event.id, event]));
    const deliveries = ctx.store.list("webhook_delivery", (delivery) => {
      const event = events.get(delivery.webhook_event_id);
      return Boolean(event && (!endpointIds || endpointIds.includes(event.endpoint_id)));
    });
    return c.json(
      paginate(c, deliveries, (delivery) =>
        serializeDelivery(delivery, events.get(delivery.webhook_event_id) as WebhookEventRecord),
      ),
    );
  });

  router.post("/events/:id/redeliver", (c) => {
    if (!ctx.webhooks.redeliver(c.req.param("id"))) throw notFound();
    return c.body(null, 202);
  });

  return router;
}

import { readJson } from "./api-errors";
import type { SandboxContext } from "./context";
import { booleanQuery, matchesMetadata, metadataQuery, newRouter, paginate, queryList } from "./http";
import { subscriptionUpdateSchema } from "./schemas";
import { serializeSubscription } from "./subscriptions.serializers";
import {
  cancelAtPeriodEnd,
  changeProduct,
  changeSeats,
  findSubscription,
  revokeSubscription,
  uncancel,
} from "./subscriptions.service";

/** Subscriptions: list, get, cancel at period end / uncancel, change product or seats, revoke. */

export function subscriptionRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/", (c) => {
    const customerIds = queryList(c, "customer_id");
    const externalIds = queryList(c, "external_customer_id");
    const productIds = queryList(c, "product_id");
    const active = booleanQuery(c, "active");
    const metadata = metadataQuery(c);
    const customers = new Map(ctx.store.list("customer").map((customer) => [customer.id, customer]));
    const subscriptions = ctx.store.list(
      "subscription",
      (subscription) =>
        (!customerIds || customerIds.includes(subscription.customer_id)) &&
        (!externalIds || externalIds.includes(customers.get(subscription.customer_id)?.external_id ?? "")) &&
        (!productIds || productIds.includes(subscription.product_id)) &&
        (active === undefined || (subscription.status === "active" || subscription.status === "trialing") === active) &&
        matchesMetadata(subscription.metadata, metadata),
    );
    return c.json(paginate(c, subscriptions, (subscription) => serializeSubscription(ctx, subscription)));
  });

  router.get("/:id", (c) => c.json(serializeSubscription(ctx, findSubscription(ctx, c.req.param("id")))));

  router.patch("/:id", async (c) => {
    const subscription = findSubscription(ctx, c.req.param("id"));
    const input = await readJson(c, subscriptionUpdateSchema);
    const updated = ctx.store.transaction(() => {
      if ("revoke" in input) return revokeSubscription(ctx, subscription);
      if ("cancel_at_period_end" in input) {
        return input.cancel_at_period_end
          ? cancelAtPeriodEnd(
              ctx,
              subscription,
              input.customer_cancellation_reason ?? null,
              input.customer_cancellation_comment ?? null,
            )
          : uncancel(ctx, subscription);
      }
      if ("product_id" in input) return changeProduct(ctx, subscription, input.product_id, input.proration_behavior);
      if ("seats" in input) return changeSeats(ctx, subscription, input.seats, input.proration_behavior);
      const next = ctx.store.put("subscription", {
        ...subscription,
        metadata: input.metadata,
        modified_at: ctx.clock.iso(),
      });
      ctx.webhooks.emit("subscription.updated", serializeSubscription(ctx, next));
      return next;
    });
    return c.json(serializeSubscription(ctx, updated));
  });

  router.delete("/:id", (c) => {
    const subscription = findSubscription(ctx, c.req.param("id"));
    return c.json(
      serializeSubscription(
        ctx,
        ctx.store.transaction(() => revokeSubscription(ctx, subscription)),
      ),
    );
  });

  return router;
}

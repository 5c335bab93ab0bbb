import { z } from "zod";
import { notFound, readJson, unauthorized } from "./api-errors";
import type { SandboxContext } from "./context";
import {
  serializeCustomerCustomerMeter,
  serializeCustomerGrant,
  serializeCustomerOrder,
  serializeCustomerSubscription,
} from "./customer-portal.serializers";
import { findPortalCustomer } from "./customer-portal.service";
import { booleanQuery, newRouter, paginate } from "./http";
import { customerMeterBalances } from "./meters.service";
import { stableId } from "./shared";
import { cancelAtPeriodEnd, uncancel } from "./subscriptions.service";

/** The customer portal API, authorized by a customer-session token (`polar_cst_…`) instead of the organization token. */
export function customerPortalRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.use("*", async (c, next) => {
    const token = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    const customer = token ? findPortalCustomer(ctx, token) : undefined;
    if (!customer) throw unauthorized();
    c.set("customer", customer);
    await next();
  });

  const ownSubscription = (customerId: string, id: string) => {
    const subscription = ctx.store.get("subscription", id);
    if (!subscription || subscription.customer_id !== customerId) throw notFound();
    return subscription;
  };

  router.get("/subscriptions", (c) => {
    const active = booleanQuery(c, "active");
    const subscriptions = ctx.store.list(
      "subscription",
      (subscription) =>
        subscription.customer_id === c.get("customer").id &&
        (active === undefined || (subscription.status === "active" || subscription.status === "trialing") === active),
    );
    return c.json(paginate(c, subscriptions, (subscription) => serializeCustomerSubscription(ctx, subscription)));
  });
  router.get("/subscriptions/:id", (c) =>
    c.json(serializeCustomerSubscription(ctx, ownSubscription(c.get("customer").id, c.req.param("id")))),
  );
  router.patch("/subscriptions/:id", async (c) => {
    const subscription = ownSubscription(c.get("customer").id, c.req.param("id"));
    const input = await readJson(
      c,
      z.object({
        cancel_at_period_end: z.boolean(),
        cancellation_reason: z.string().nullish(),
        cancellation_comment: z.string().nullish(),
      }),
    );
    const updated = ctx.store.transaction(() =>
      input.cancel_at_period_end
        ? cancelAtPeriodEnd(ctx, subscription, input.cancellation_reason ?? null, input.cancellation_comment ?? null)
        : uncancel(ctx, subscription),
    );
    return c.json(serializeCustomerSubscription(ctx, updated));
  });
  // In the portal, DELETE cancels at the end of the period; only the organization can revoke at once.
  router.delete("/subscriptions/:id", (c) => {
    const subscription = ownSubscription(c.get("customer").id, c.req.param("id"));
    return c.json(
      serializeCustomerSubscription(
        ctx,
        ctx.store.transaction(() => cancelAtPeriodEnd(ctx, subscription, null, null)),
      ),
    );
  });

  router.get("/orders", (c) => {
    const billingType = c.req.query("product_billing_type");
    const orders = ctx.store.list(
      "order",
      (order) =>
        order.customer_id === c.get("customer").id &&
        (!billingType || (billingType === "recurring") === (order.subscription_id !== null)),
    );
    return c.json(paginate(c, orders, (order) => serializeCustomerOrder(ctx, order)));
  });
  router.get("/orders/:id", (c) => {
    const order = ctx.store.get("order", c.req.param("id"));
    if (!order || order.customer_id !== c.get("customer").id) throw notFound();
    return c.json(serializeCustomerOrder(ctx, order));
  });

  router.get("/benefit-grants", (c) => {
    const grants = ctx.store.list("grant", (grant) => grant.customer_id === c.get("customer").id);
    return c.json(paginate(c, grants, (grant) => serializeCustomerGrant(ctx, grant)));
  });
  router.get("/benefit-grants/:id", (c) => {
    const grant = ctx.store.get("grant", c.req.param("id"));
    if (!grant || grant.customer_id !== c.get("customer").id) throw notFound();
    return c.json(serializeCustomerGrant(ctx, grant));
  });

  router.get("/meters", (c) => {
    const customer = c.get("customer");
    return c.json(
      paginate(c, customerMeterBalances(ctx, customer), ({ meter }) =>
        serializeCustomerCustomerMeter(ctx, customer, meter),
      ),
    );
  });
  router.get("/meters/:id", (c) => {
    const customer = c.get("customer");
    const entry = customerMeterBalances(ctx, customer).find(
      ({ meter }) => stableId(customer.id, meter.id) === c.req.param("id"),
    );
    if (!entry) throw notFound();
    return c.json(serializeCustomerCustomerMeter(ctx, customer, entry.meter));
  });

  return router;
}

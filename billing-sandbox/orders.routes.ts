import { notFound, readJson } from "./api-errors";
import type { SandboxContext } from "./context";
import { matchesMetadata, metadataQuery, newRouter, paginate, queryList } from "./http";
import { serializeOrder, serializeRefund } from "./orders.serializers";
import { refundOrder } from "./orders.service";
import { refundCreateSchema } from "./schemas";

/** Orders (read-only: they are made by checkouts, renewals and plan changes) and refunds. */

export function orderRoutes(ctx: SandboxContext) {
  const router = newRouter();
  router.get("/", (c) => {
    const customerIds = queryList(c, "customer_id");
    const externalIds = queryList(c, "external_customer_id");
    const productIds = queryList(c, "product_id");
    const subscriptionIds = queryList(c, "subscription_id");
    const checkoutIds = queryList(c, "checkout_id");
    const statuses = queryList(c, "status");
    const billingTypes = queryList(c, "product_billing_type");
    const metadata = metadataQuery(c);
    const customers = new Map(ctx.store.list("customer").map((customer) => [customer.id, customer]));
    const orders = ctx.store.list(
      "order",
      (order) =>
        (!customerIds || customerIds.includes(order.customer_id)) &&
        (!externalIds || externalIds.includes(customers.get(order.customer_id)?.external_id ?? "")) &&
        (!productIds || (order.product_id !== null && productIds.includes(order.product_id))) &&
        (!subscriptionIds || (order.subscription_id !== null && subscriptionIds.includes(order.subscription_id))) &&
        (!checkoutIds || (order.checkout_id !== null && checkoutIds.includes(order.checkout_id))) &&
        (!statuses || statuses.includes(order.status)) &&
        (!billingTypes || billingTypes.includes(order.subscription_id ? "recurring" : "one_time")) &&
        matchesMetadata(order.metadata, metadata),
    );
    return c.json(paginate(c, orders, (order) => serializeOrder(ctx, order)));
  });
  router.get("/:id", (c) => {
    const order = ctx.store.get("order", c.req.param("id"));
    if (!order) throw notFound();
    return c.json(serializeOrder(ctx, order));
  });
  return router;
}

export function refundRoutes(ctx: SandboxContext) {
  const router = newRouter();
  router.get("/", (c) => {
    const orderIds = queryList(c, "order_id");
    const refunds = ctx.store.list("refund", (refund) => !orderIds || orderIds.includes(refund.order_id));
    return c.json(paginate(c, refunds, (refund) => serializeRefund(ctx, refund)));
  });
  router.post("/", async (c) => {
    const input = await readJson(c, refundCreateSchema);
    return c.json(serializeRefund(ctx, refundOrder(ctx, input)), 201);
  });
  return router;
}

import type { Context } from "hono";
import type { z } from "zod";
import { notFound, readJson, validationError } from "./api-errors";
import type { SandboxContext } from "./context";
import {
  serializeCustomer,
  serializeCustomerSession,
  serializeCustomerState,
  serializePaymentMethod,
} from "./customers.serializers";
import {
  assertCustomerUnique,
  createCustomer,
  createCustomerSession,
  emitCustomerStateChanged,
  findCustomerByExternalId,
  isSameEmail,
} from "./customers.service";
import { matchesMetadata, metadataQuery, newRouter, paginate } from "./http";
import type { CustomerRecord } from "./records";
import { customerCreateSchema, customerSessionCreateSchema, customerUpdateSchema } from "./schemas";
import { liveSubscriptions, revokeSubscription } from "./subscriptions.service";

/** Customers (individuals and teams, by id and by external id), their state and saved cards, and customer sessions for the portal. */

function byId(ctx: SandboxContext, id: string): CustomerRecord {
  const customer = ctx.store.get("customer", id);
  if (!customer || customer.deleted_at) throw notFound();
  return customer;
}

function byExternalId(ctx: SandboxContext, externalId: string): CustomerRecord {
  const customer = findCustomerByExternalId(ctx, externalId);
  if (!customer) throw notFound();
  return customer;
}

export function customerRoutes(ctx: SandboxContext) {
  const router = newRouter();

  router.get("/", (c) => {
    const email = c.req.query("email");
    const query = c.req.query("query")?.toLowerCase();
    const metadata = metadataQuery(c);
    const customers = ctx.store.list(
      "customer",
      (customer) =>
        customer.deleted_at === null &&
        (!email || isSameEmail(customer.email, email)) &&
        (!query ||
          (customer.email ?? "").toLowerCase().includes(query) ||
          (customer.name ?? "").toLowerCase().includes(query) ||
          customer.external_id === query) &&
        matchesMetadata(customer.metadata, metadata),
    );
    return c.json(paginate(c, customers, (customer) => serializeCustomer(ctx, customer)));
  });

  router.post("/", async (c) => {
    const input = await readJson(c, customerCreateSchema);
    return c.json(
      serializeCustomer(
        ctx,
        ctx.store.transaction(() => createCustomer(ctx, input)),
      ),
      201,
    );
  });

  const paymentMethods = (c: Context, customer: CustomerRecord) =>
    paginate(
      c,
      ctx.store.list("payment_method", (method) => method.customer_id === customer.id),
      (method) => serializePaymentMethod(customer, method),
    );

  const update = (customer: CustomerRecord, input: z.infer<typeof customerUpdateSchema>) => {
    if (
      input.external_id !== undefined &&
      customer.external_id !== null &&
      input.external_id !== customer.external_id
    ) {
      throw validationError(["body", "external_id"], "Customer external ID cannot be updated.");
    }
    assertCustomerUnique(ctx, { email: input.email, external_id: input.external_id }, customer.id);
    return ctx.store.transaction(() => {
      const updated = ctx.store.put("customer", {
        ...customer,
        email: input.email ?? customer.email,
        name: input.name === undefined ? customer.name : input.name,
        external_id: input.external_id ?? customer.external_id,
        metadata: input.metadata ?? customer.metadata,
        billing_address: input.billing_address === undefined ? customer.billing_address : input.billing_address,
        tax_id: input.tax_id === undefined ? customer.tax_id : input.tax_id,
        locale: input.locale === undefined ? customer.locale : input.locale,
        modified_at: ctx.clock.iso(),
      });
      ctx.webhooks.emit("customer.updated", serializeCustomer(ctx, updated));
      emitCustomerStateChanged(ctx, updated.id);
      return serializeCustomer(ctx, updated);
    });
  };

  /** Ends the customer's live subscriptions at once (each with the usual revoke webhooks), then soft-deletes it. */
  const remove = (customer: CustomerRecord, anonymize: boolean) =>
    ctx.store.transaction(() => {
      for (const subscription of liveSubscriptions(ctx, customer.id)) revokeSubscription(ctx, subscription);
      const deleted = ctx.store.put("customer", {
        ...customer,
        deleted_at: ctx.clock.iso(),
        modified_at: ctx.clock.iso(),
        ...(anonymize ? { email: `${customer.id}@anonymized.invalid`, name: null, billing_address: null } : {}),
      });
      ctx.webhooks.emit("customer.deleted", serializeCustomer(ctx, deleted));
    });

  router.get("/external/:externalId", (c) =>
    c.json(serializeCustomer(ctx, byExternalId(ctx, c.req.param("externalId")))),
  );
  router.patch("/external/:externalId", async (c) => {
    const customer = byExternalId(ctx, c.req.param("externalId"));
    return c.json(update(customer, await readJson(c, customerUpdateSchema)));
  });
  router.delete("/external/:externalId", (c) => {
    remove(byExternalId(ctx, c.req.param("externalId")), c.req.query("anonymize") === "true");
    return c.body(null, 204);
  });
  router.get("/external/:externalId/state", (c) =>
    c.json(serializeCustomerState(ctx, byExternalId(ctx, c.req.param("externalId")))),
  );
  router.get("/external/:externalId/payment-methods", (c) =>
    c.json(paymentMethods(c, byExternalId(ctx, c.req.param("externalId")))),
  );

  router.get("/:id", (c) => c.json(serializeCustomer(ctx, byId(ctx, c.req.param("id")))));
  router.patch("/:id", async (c) => {
    const customer = byId(ctx, c.req.param("id"));
    return c.json(update(customer, await readJson(c, customerUpdateSchema)));
  });
  router.delete("/:id", (c) => {
    remove(byId(ctx, c.req.param("id")), c.req.query("anonymize") === "true");
    return c.body(null, 204);
  });
  router.get("/:id/state", (c) => c.json(serializeCustomerState(ctx, byId(ctx, c.req.param("id")))));
  router.get("/:id/payment-methods", (c) => c.json(paymentMethods(c, byId(ctx, c.req.param("id")))));

  return router;
}

export function customerSessionRoutes(ctx: SandboxContext) {
  const router = newRouter();
  router.post("/", async (c) => {
    const input = await readJson(c, customerSessionCreateSchema);
    const customer =
      "customer_id" in input
        ? ctx.store.get("customer", input.customer_id)
        : findCustomerByExternalId(ctx, input.external_customer_id);
    if (!customer || customer.deleted_at)
      throw validationError(
        ["body", "customer_id" in input ? "customer_id" : "external_customer_id"],
        "Customer does not exist.",
      );
    return c.json(
      serializeCustomerSession(ctx, createCustomerSession(ctx, customer.id, input.return_url ?? null)),
      201,
    );
  });
  return router;
}

import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BillingOverview } from "../../../common/billing.schemas";
import { MAX_USAGE_ATTEMPTS } from "../../jobs/billing-worker";
import { checkoutIdOf, productIdOf, sandboxCall, settleBilling, subscribe } from "../../test/billing";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * The billing provider down (connection refused) or slow (holding requests past the client's timeout) during
 * checkout, plan change and usage ingestion, and webhooks lost while it was so. The app is configured for a
 * real provider whose address is a proxy in front of the sandbox mounted in the same app; the sandbox delivers
 * its webhooks to the app directly.
 */

const WEBHOOK_SECRET = "whsec_faultsfaultsfaultsfaultsfaults";
/** The provider client gives up after 8 s (billing.provider.ts); an answer must come well before the test's own limit. */
const CLIENT_TIMEOUT_MS = 8_000;
const ANSWER_BOUND_MS = 20_000;
const NOT_ANSWERING = (action: string) =>
  `The billing provider is not answering (${action}); nothing was changed. Try again in a moment.`;
const NOT_IN_TIME = (action: string) =>
  `The billing provider did not answer in time (${action}). Try again in a moment: a change that did go through is not made twice.`;

type Held = { request: IncomingMessage; response: ServerResponse; body: Buffer };

/**
 * A tiny HTTP proxy in front of the provider: passes requests on, refuses connections (`down`: the port is
 * closed), or holds the requests a predicate picks (`hold`) until `release` drops them or forwards them late.
 */
async function startProviderProxy() {
  let target = "";
  let holds: ((request: IncomingMessage) => boolean) | null = null;
  const held: Held[] = [];
  const forward = async ({ request, response, body }: Held) => {
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !["host", "connection", "content-length"].includes(name)),
    );
    const answer = await fetch(`${target}${request.url}`, {
      method: request.method,
      headers: headers as Record<string, string>,
      body: body.length ? body : undefined,
    });
    const text = Buffer.from(await answer.arrayBuffer());
    if (response.destroyed) return;
    response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    response.end(text);
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const call = { request, response, body: Buffer.concat(chunks) };
      if (holds?.(request)) held.push(call);
      else void forward(call).catch(() => response.destroy());
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setTarget(url: string) {
      target = url;
    },
    /** Closes the port: every call fails with connection refused until `up`. */
    async down() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    async up() {
      server.listen(port, "127.0.0.1");
      await once(server, "listening");
    },
    hold(predicate: (request: IncomingMessage) => boolean) {
      holds = predicate;
    },
    /** Stops holding; the held requests are dropped (they never reach the provider) or forwarded now. */
    async release(options: { forward: boolean }) {
      holds = null;
      const calls = held.splice(0);
      await Promise.all(calls.map(async (call) => (options.forward ? forward(call) : call.response.destroy())));
      return calls.map((call) => `${call.request.method} ${call.request.url?.split("?")[0]}`);
    },
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

let proxy: Awaited<ReturnType<typeof startProviderProxy>>;
let server: TestApp;
let owner: TestUser;
let endpointId: string;

beforeAll(async () => {
  proxy = await startProviderProxy();
  server = await createTestApp({
    listen: true,
    env: {
      POLAR_ACCESS_TOKEN: "polar_oat_faults",
      POLAR_SERVER_URL: proxy.url,
      POLAR_WEBHOOK_SECRET: WEBHOOK_SECRET,
      BILLING_SANDBOX: "true",
    },
  });
  proxy.setTarget(`${server.config.baseUrl}/sandbox/polar`);
  // A real provider has the app's endpoint registered in its dashboard; here the test registers it.
  const endpoint = await sandboxCall(server, "POST", "/v1/webhooks/endpoints", {
    url: `${server.config.baseUrl}/api/billing/webhooks`,
    secret: WEBHOOK_SECRET,
    format: "raw",
    events: [
      "checkout.created",
      "checkout.updated",
      "customer.created",
      "customer.updated",
      "customer.state_changed",
      "subscription.created",
      "subscription.updated",
      "subscription.active",
      "subscription.canceled",
      "subscription.uncanceled",
      "subscription.revoked",
      "order.created",
      "order.paid",
      "order.updated",
      "benefit_grant.created",
      "benefit_grant.updated",
      "benefit_grant.revoked",
    ],
  });
  expect(endpoint.status).toBe(201);
  endpointId = String(endpoint.body.id);
  owner = await createVerifiedUser(server);
  // The catalogue is read (and cached) while the provider answers, as it would have been before the outage.
  await productIdOf(owner.client, "pro");
});

afterAll(async () => {
  await proxy?.release({ forward: false });
  await server?.close();
  await proxy?.close();
});

/** Changes the app's webhook endpoint at the provider (where it delivers, or whether it delivers at all). */
async function setWebhooks(change: { url?: string; enabled?: boolean }): Promise<void> {
  expect((await sandboxCall(server, "PATCH", `/v1/webhooks/endpoints/${endpointId}`, change)).status).toBe(200);
}

async function overviewOf(organizationId: string): Promise<BillingOverview> {
  const response = await owner.client.get(`/api/organizations/${organizationId}/billing`);
  expect(response.status).toBe(200);
  return response.data as BillingOverview;
}

/** What the provider holds for an organization: its customers and their checkouts. */
async function providerCustomers(organizationId: string): Promise<Array<{ id: string }>> {
  const customers = (await sandboxCall(server, "GET", "/v1/customers/?limit=100")).body.items as Array<{
    id: string;
    external_id: string | null;
  }>;
  return customers.filter((customer) => customer.external_id === organizationId);
}

async function providerCheckouts(organizationId: string): Promise<unknown[]> {
  const checkouts = (await sandboxCall(server, "GET", "/v1/checkouts/?limit=100")).body.items as Array<{
    external_customer_id: string | null;
  }>;
  return checkouts.filter((checkout) => checkout.external_customer_id === organizationId);
}

async function localRows(organizationId: string) {
  const [customers, objects, audit] = await Promise.all([
    server.db
      .selectFrom("billing_customer")
      .select(["customer_id"])
      .where("organization_id", "=", organizationId)
      .execute(),
    server.db.selectFrom("billing_object").select(["kind"]).where("organization_id", "=", organizationId).execute(),
    server.db
      .selectFrom("audit_event")
      .select(["action"])
      .where("organization_id", "=", organizationId)
      .where("action", "like", "billing.%")
      .execute(),
  ]);
  return { customers, objects: objects.map((row) => row.kind).sort(), audit: audit.map((row) => row.action).sort() };
}

/** Runs `call`, and checks it answered within the bound (the client's timeout, plus room for a loaded machine). */
async function timed<T>(call: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = Date.now();
  const answer = await call();
  const ms = Date.now() - started;
  expect(ms).toBeLessThan(ANSWER_BOUND_MS);
  return { answer, ms };
}

describe("checkout while the provider is down or slow", () => {
  it("connection refused: 503 at once, nothing stored anywhere; once it is back a retry creates one customer and one checkout", async () => {
    const organization = await createOrganizationWithOwner(owner, "Refused checkout");
    const productId = await productIdOf(owner.client, "pro");
    await proxy.down();
    try {
      const { answer, ms } = await timed(() =>
        owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, { productId }),
      );
      await expectError(answer, 503, NOT_ANSWERING("look up the billing customer"));
      expect(ms).toBeLessThan(CLIENT_TIMEOUT_MS);
    } finally {
      await proxy.up();
    }
    expect(await localRows(organization.id)).toEqual({ customers: [], objects: [], audit: [] });
    expect(await providerCustomers(organization.id)).toEqual([]);

    const retried = await owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, { productId });
    expect(retried.status).toBe(200);
    await settleBilling(server);
    expect(await providerCustomers(organization.id)).toHaveLength(1);
    expect(await providerCheckouts(organization.id)).toHaveLength(1);
    expect(await localRows(organization.id)).toMatchObject({
      objects: ["checkout"],
      audit: ["billing.checkout_started"],
    });
  });

  it("the checkout call held past the timeout: 504 within the bound, no local checkout; the retry reuses the customer", async () => {
    const organization = await createOrganizationWithOwner(owner, "Slow checkout");
    const productId = await productIdOf(owner.client, "pro");
    proxy.hold((request) => request.method === "POST" && request.url?.startsWith("/v1/checkouts") === true);
    try {
      const { answer, ms } = await timed(() =>
        owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, { productId }),
      );
      await expectError(answer, 504, NOT_IN_TIME("start the checkout"));
      expect(ms).toBeGreaterThanOrEqual(CLIENT_TIMEOUT_MS - 500);
    } finally {
      expect(await proxy.release({ forward: false })).toEqual(["POST /v1/checkouts/"]);
    }
    // The customer the call created first is real at the provider: the local row points at it, not at nothing.
    const [customer] = await providerCustomers(organization.id);
    expect(await localRows(organization.id)).toEqual({
      customers: [{ customer_id: customer?.id }],
      objects: [],
      audit: [],
    });
    expect(await providerCheckouts(organization.id)).toEqual([]);

    const retried = await owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, { productId });
    expect(retried.status).toBe(200);
    await checkoutIdOf(server, (retried.data as { url: string }).url);
    expect(await providerCustomers(organization.id)).toEqual([customer]);
    expect(await providerCheckouts(organization.id)).toHaveLength(1);
    expect(await localRows(organization.id)).toMatchObject({
      objects: ["checkout"],
      audit: ["billing.checkout_started"],
    });
  });

  it("a customer the provider created after the client gave up is found again by the retry, not created twice", async () => {
    const organization = await createOrganizationWithOwner(owner, "Late customer");
    const productId = await productIdOf(owner.client, "pro");
    proxy.hold((request) => request.method === "POST" && request.url?.startsWith("/v1/customers") === true);
    // Its customer.created webhook does not arrive either: only the retry's lookup can find the customer.
    await setWebhooks({ enabled: false });
    try {
      await expectError(
        (await timed(() => owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, { productId })))
          .answer,
        504,
        NOT_IN_TIME("create the billing customer"),
      );
      expect(await proxy.release({ forward: true })).toEqual(["POST /v1/customers/"]);
      await settleBilling(server);
    } finally {
      await proxy.release({ forward: false });
      await setWebhooks({ enabled: true });
    }
    const [customer] = await providerCustomers(organization.id);
    expect(customer).toBeDefined();
    expect(await localRows(organization.id)).toEqual({ customers: [], objects: [], audit: [] });

    expect(
      (await owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, { productId })).status,
    ).toBe(200);
    expect(await providerCustomers(organization.id)).toEqual([customer]);
    expect(await localRows(organization.id)).toEqual({
      customers: [{ customer_id: customer?.id }],
      objects: ["checkout"],
      audit: ["billing.checkout_started"],
    });
  });
});

describe("plan change while the provider is down or slow", () => {
  it("refused (503), then held past the timeout (504): each time the plan shown is the one at the provider; then it changes once", async () => {
    const organization = await createOrganizationWithOwner(owner, "Plan change");
    await subscribe(server, owner, organization.id, { productId: await productIdOf(owner.client, "pro") });
    const monthly = await overviewOf(organization.id);
    const yearly = await productIdOf(owner.client, "pro", "year");
    const change = () =>
      owner.client.post(`/api/organizations/${organization.id}/billing/subscription`, { productId: yearly });
    const atProvider = async () =>
      (await sandboxCall(server, "GET", `/v1/subscriptions/${monthly.subscription?.id}`)).body.product_id;

    await proxy.down();
    try {
      await expectError((await timed(change)).answer, 503, NOT_ANSWERING("change the plan"));
    } finally {
      await proxy.up();
    }
    proxy.hold((request) => request.method === "PATCH" && request.url?.startsWith("/v1/subscriptions/") === true);
    try {
      const { answer, ms } = await timed(change);
      await expectError(answer, 504, NOT_IN_TIME("change the plan"));
      expect(ms).toBeGreaterThanOrEqual(CLIENT_TIMEOUT_MS - 500);
    } finally {
      expect(await proxy.release({ forward: false })).toEqual([`PATCH /v1/subscriptions/${monthly.subscription?.id}`]);
    }
    await settleBilling(server);
    expect(await atProvider()).toBe(monthly.plan.productId);
    expect((await overviewOf(organization.id)).subscription?.productId).toBe(monthly.plan.productId);
    expect((await localRows(organization.id)).audit).not.toContain("billing.plan_changed");

    const changed = await change();
    expect(changed.status).toBe(200);
    expect((changed.data as BillingOverview).subscription).toMatchObject({
      productId: yearly,
      recurringInterval: "year",
    });
    await settleBilling(server);
    expect(await atProvider()).toBe(yearly);
    expect((await localRows(organization.id)).audit.filter((action) => action === "billing.plan_changed")).toHaveLength(
      1,
    );
    await expectError(await change(), 400, "The organization is already on this plan.");
  });

  it("a change the provider made after the client gave up arrives by its webhook, and a retry does not make it twice", async () => {
    const organization = await createOrganizationWithOwner(owner, "Late change");
    await subscribe(server, owner, organization.id, { productId: await productIdOf(owner.client, "pro") });
    const monthly = await overviewOf(organization.id);
    const yearly = await productIdOf(owner.client, "pro", "year");
    const change = () =>
      owner.client.post(`/api/organizations/${organization.id}/billing/subscription`, { productId: yearly });
    proxy.hold((request) => request.method === "PATCH" && request.url?.startsWith("/v1/subscriptions/") === true);
    try {
      await expectError((await timed(change)).answer, 504, NOT_IN_TIME("change the plan"));
      expect((await overviewOf(organization.id)).subscription?.productId).toBe(monthly.plan.productId);
    } finally {
      await proxy.release({ forward: true });
    }
    await settleBilling(server);
    expect((await overviewOf(organization.id)).subscription).toMatchObject({
      id: monthly.subscription?.id,
      productId: yearly,
    });
    await expectError(await change(), 400, "The organization is already on this plan.");
  });
});

describe("usage while the provider is down or slow", () => {
  async function usageRow(organizationId: string) {
    return server.db
      .selectFrom("billing_usage_event")
      .select(["status", "attempts"])
      .where("organization_id", "=", organizationId)
      .executeTakeFirstOrThrow();
  }
  /** The backoff has elapsed: the queued record is due now. */
  async function makeDue(organizationId: string) {
    await server.db
      .updateTable("billing_usage_event")
      .set({ next_attempt_at: new Date(Date.now() - 1_000).toISOString() })
      .where("organization_id", "=", organizationId)
      .execute();
  }
  async function providerEvents(
    organizationId: string,
  ): Promise<Array<{ name: string; metadata: Record<string, unknown> }>> {
    const page = await sandboxCall(server, "GET", `/v1/events/?external_customer_id=${organizationId}&limit=100`);
    expect(page.status).toBe(200);
    return page.body.items as Array<{ name: string; metadata: Record<string, unknown> }>;
  }

  it("stays queued while refused and while slow (even when the slow call reached the provider late), then counts exactly once", async () => {
    const organization = await createOrganizationWithOwner(owner, "Usage");
    await subscribe(server, owner, organization.id, { productId: await productIdOf(owner.client, "pro") });

    await proxy.down();
    try {
      const recorded = await owner.client.post(`/api/organizations/${organization.id}/billing/usage`, {
        meter: "api_request",
        quantity: 5,
        key: "batch-1",
      });
      expect(recorded.status).toBe(202);
      await server.services.billingWorker.drain();
    } finally {
      await proxy.up();
    }
    expect(await usageRow(organization.id)).toEqual({ status: "pending", attempts: 1 });
    expect(await providerEvents(organization.id)).toEqual([]);

    // Slow: the client gives up, and the provider gets the request afterwards (an answer lost on the way back).
    await makeDue(organization.id);
    proxy.hold((request) => request.url?.startsWith("/v1/events/ingest") === true);
    try {
      await timed(() => server.services.billingWorker.drain());
    } finally {
      expect(await proxy.release({ forward: true })).toEqual(["POST /v1/events/ingest"]);
    }
    expect(await usageRow(organization.id)).toEqual({ status: "pending", attempts: 2 });
    expect(await providerEvents(organization.id)).toHaveLength(1);

    // Back: the retry is sent, and the provider recognises it by its external id.
    await makeDue(organization.id);
    await server.services.billingWorker.drain();
    expect(await usageRow(organization.id)).toEqual({ status: "sent", attempts: 2 });
    expect(await providerEvents(organization.id)).toMatchObject([{ name: "api_request", metadata: { quantity: 5 } }]);
  });

  it("an outage longer than the retry limit only delays the usage: it is still sent once the provider is back", async () => {
    const organization = await createOrganizationWithOwner(owner, "Long outage");
    await subscribe(server, owner, organization.id, { productId: await productIdOf(owner.client, "pro") });
    await proxy.down();
    try {
      expect(
        (
          await owner.client.post(`/api/organizations/${organization.id}/billing/usage`, {
            meter: "api_request",
            quantity: 3,
          })
        ).status,
      ).toBe(202);
      await server.services.billingWorker.drain();
      // Hours of failed attempts behind it: the next one is the last the limit allows.
      await server.db
        .updateTable("billing_usage_event")
        .set({ attempts: MAX_USAGE_ATTEMPTS - 1, next_attempt_at: new Date(Date.now() - 1_000).toISOString() })
        .where("organization_id", "=", organization.id)
        .execute();
      await server.services.billingWorker.drain();
      await makeDue(organization.id);
      await server.services.billingWorker.drain();
    } finally {
      await proxy.up();
    }
    expect(await usageRow(organization.id)).toEqual({ status: "pending", attempts: MAX_USAGE_ATTEMPTS + 1 });
    await makeDue(organization.id);
    await server.services.billingWorker.drain();
    expect(await usageRow(organization.id)).toEqual({ status: "sent", attempts: MAX_USAGE_ATTEMPTS + 1 });
    expect(await providerEvents(organization.id)).toMatchObject([{ name: "api_request", metadata: { quantity: 3 } }]);
  });
});

describe("webhooks lost during an outage", () => {
  it("a plan changed at the provider while deliveries fail is the plan shown after the reconciliation", async () => {
    const organization = await createOrganizationWithOwner(owner, "Lost webhooks");
    await subscribe(server, owner, organization.id, { productId: await productIdOf(owner.client, "pro") });
    const before = await overviewOf(organization.id);
    const yearly = await productIdOf(owner.client, "pro", "year");
    // The app's endpoint is unreachable from the provider: every delivery fails.
    await setWebhooks({ url: "http://127.0.0.1:9/api/billing/webhooks" });
    try {
      const updated = await sandboxCall(server, "PATCH", `/v1/subscriptions/${before.subscription?.id}`, {
        product_id: yearly,
      });
      expect(updated.status).toBe(200);
      await settleBilling(server);
      const deliveries = (await sandboxCall(server, "GET", "/v1/webhooks/deliveries?limit=100")).body.items as Array<{
        succeeded: boolean;
      }>;
      expect(deliveries.some((delivery) => !delivery.succeeded)).toBe(true);
      expect((await overviewOf(organization.id)).subscription?.productId).toBe(before.plan.productId);

      const result = await server.services.billing.reconcileAll();
      expect(result.failed).toBe(0);
      const after = await overviewOf(organization.id);
      expect(after.subscription).toMatchObject({
        id: before.subscription?.id,
        productId: yearly,
        recurringInterval: "year",
        status: "active",
      });
      expect(after.plan).toEqual({ ...before.plan, productId: yearly });
    } finally {
      await setWebhooks({ url: `${server.config.baseUrl}/api/billing/webhooks` });
    }
  });
});

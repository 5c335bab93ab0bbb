import { webhooks as polarWebhooks } from "@polar-sh/sdk/2026-10";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClock } from "./clock";
import { openStore } from "./store";
import { DELIVERY_RETENTION_MS, createWebhookDispatcher, signWebhook } from "./webhook-dispatcher";
import { expectSchema } from "./test/openapi-validator";
import { startHarness, startReceiver, waitFor, type Harness, type WebhookReceiver } from "./test/harness";

let harness: Harness;
let flaky: WebhookReceiver;

beforeAll(async () => {
  harness = await startHarness({ webhookRetryBaseMs: 40 });
  flaky = await startReceiver();
});
afterAll(async () => {
  await harness.close();
  await flaky.close();
});
afterEach(() => {
  expect(harness.problems.splice(0)).toEqual([]);
});

const headersOf = (webhook: { headers: Record<string, unknown> }) => ({
  "webhook-id": String(webhook.headers["webhook-id"]),
  "webhook-timestamp": String(webhook.headers["webhook-timestamp"]),
  "webhook-signature": String(webhook.headers["webhook-signature"]),
});

describe("webhook signing", () => {
  it("signs with the UTF-8 bytes of the whole whsec_ secret, which standardwebhooks (0.47 trick) and the SDK accept", async () => {
    const secret = "whsec_notBase64AtAll_!";
    const body = JSON.stringify({ type: "customer.created", timestamp: new Date().toISOString(), data: {} });
    const id = "2f7c3a49-7d0e-4a3c-9d7b-1f2e3d4c5b6a";
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook(secret, id, timestamp, body),
    };
    expect(new Webhook(Buffer.from(secret, "utf-8").toString("base64")).verify(body, headers)).toEqual(
      JSON.parse(body),
    );
    await expect(polarWebhooks.validateEvent(body, headers, secret)).resolves.toEqual(JSON.parse(body));
    await expect(polarWebhooks.validateEvent(body, headers, "whsec_another")).rejects.toThrow(
      "No matching signature found",
    );
  });
});

describe("webhook endpoints and delivery", () => {
  it("registers an endpoint for chosen event types and delivers only those", async () => {
    const endpoint = await harness.polar.webhooks.createWebhookEndpoint({
      url: flaky.url,
      format: "raw",
      events: ["customer.created", "customer.updated"],
    });
    expectSchema("WebhookEndpoint", endpoint);
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect((await harness.polar.webhooks.getWebhookEndpoint(endpoint.id)).url).toBe(flaky.url);
    const listed = await harness.polar.webhooks.listWebhookEndpoints({});
    expect(listed.items.map((item) => item.url).sort()).toEqual([harness.receiver.url, flaky.url].sort());

    const customer = await harness.polar.customers.create({ email: "hooks@example.test", external_id: "org_hooks" });
    await harness.polar.products.create({
      name: "Not subscribed",
      prices: [{ amount_type: "fixed", price_amount: 100, price_currency: "usd" }],
    });
    const delivered = await waitFor(
      () => flaky.received.find((webhook) => webhook.payload.type === "customer.created"),
      5000,
      "customer.created",
    );
    expect(delivered.payload.data).toMatchObject({ id: customer.id, external_id: "org_hooks" });
    await expect(
      polarWebhooks.validateEvent(delivered.body, headersOf(delivered), endpoint.secret),
    ).resolves.toMatchObject({ type: "customer.created" });
    await harness.sandbox.context.webhooks.drain();
    expect(flaky.received.map((webhook) => webhook.payload.type)).toEqual(["customer.created"]);

    const rotated = await harness.polar.webhooks.resetWebhookEndpointSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    await harness.polar.webhooks.deleteWebhookEndpoint(endpoint.id);
  });

  it("retries failed deliveries with exponential backoff and the same webhook-id, first in first out, and logs every attempt", async () => {
    const endpoint = await harness.polar.webhooks.createWebhookEndpoint({
      url: flaky.url,
      format: "raw",
      events: ["customer.created"],
    });
    flaky.received.length = 0;
    const attempts: { id: string; at: number; type: string }[] = [];
    flaky.respondWith = (webhook) => {
      attempts.push({ id: String(webhook.headers["webhook-id"]), at: Date.now(), type: webhook.payload.type });
      return attempts.length <= 3 ? 503 : 200;
    };
    const first = await harness.polar.customers.create({ email: "retry-1@example.test" });
    const second = await harness.polar.customers.create({ email: "retry-2@example.test" });
    await waitFor(() => flaky.received.length === 2, 10_000, "both deliveries");
    flaky.respondWith = () => 200;

    expect(flaky.received.map((webhook) => (webhook.payload.data as { id: string }).id)).toEqual([first.id, second.id]);
    const firstAttempts = attempts.filter((attempt) => attempt.id === attempts[0]?.id);
    expect(firstAttempts).toHaveLength(4);
    const gaps = firstAttempts.slice(1).map((attempt, index) => attempt.at - (firstAttempts[index]?.at ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[1]).toBeGreaterThanOrEqual(75);
    expect(gaps[2]).toBeGreaterThanOrEqual(155);

    const deliveries = await harness.polar.webhooks.listWebhookDeliveries({ endpoint_id: endpoint.id, limit: 100 });
    for (const delivery of deliveries.items) expectSchema("WebhookDelivery", delivery);
    const forFirst = deliveries.items.filter((delivery) => delivery.webhook_event.id === attempts[0]?.id);
    expect(forFirst.map((delivery) => [delivery.succeeded, delivery.http_code]).reverse()).toEqual([
      [false, 503],
      [false, 503],
      [false, 503],
      [true, 200],
    ]);

    const redelivered = await harness.request("POST", `/v1/webhooks/events/${attempts[0]?.id}/redeliver`);
    expect(redelivered.status).toBe(202);
    await waitFor(() => flaky.received.length === 3, 5000, "redelivery");
    expect(flaky.received[2]?.headers["webhook-id"]).toBe(attempts[0]?.id);
    expect(
      (await harness.request("POST", "/v1/webhooks/events/00000000-0000-4000-8000-000000000000/redeliver")).status,
    ).toBe(404);
    await harness.polar.webhooks.deleteWebhookEndpoint(endpoint.id);
  });

  it("gives up after 10 attempts on an unreachable URL without crashing", async () => {
    const unreachable = await startHarness({
      webhookEndpoint: { url: "http://127.0.0.1:9/nothing-listens-here", secret: "whsec_unreachable" },
      webhookRetryBaseMs: 1,
    });
    try {
      await unreachable.polar.customers.create({ email: "nobody@example.test" });
      const events = () => unreachable.sandbox.context.store.list("webhook_event");
      await waitFor(
        () => events().length > 0 && events().every((event) => event.succeeded === false),
        10_000,
        "retries exhausted",
      );
      expect(events()[0]?.attempts).toBe(10);
      expect((await unreachable.polar.products.list({})).items.length).toBeGreaterThan(0);
    } finally {
      await unreachable.close();
    }
  });
});

describe("webhook delivery history", () => {
  it("is pruned by the dispatcher after the retention period of sandbox time; recent deliveries and undelivered events are kept", async () => {
    const receiver = await startReceiver();
    receiver.respondWith = (request) => (request.payload.type === "order.refunded" ? 500 : 200);
    const store = openStore(":memory:");
    const clock = createClock(store);
    const dispatcher = createWebhookDispatcher({ store, clock, retryBaseMs: 60_000 });
    try {
      const at = clock.iso();
      const endpoint = {
        created_at: at,
        modified_at: null,
        url: receiver.url,
        name: null,
        format: "raw",
        secret: "whsec_x",
        enabled: true,
      } as const;
      store.put("webhook_endpoint", { ...endpoint, id: "paid", events: ["order.created"] });
      // Its receiver refuses: the event stays pending, its retry a minute away (and it holds back nothing of the other endpoint).
      store.put("webhook_endpoint", { ...endpoint, id: "refunded", events: ["order.refunded"] });
      dispatcher.emit("order.created", { n: 1 });
      await dispatcher.drain();
      dispatcher.emit("order.refunded", { n: 2 });
      await dispatcher.drain();
      const old = store.list("webhook_delivery");
      expect(old.map((delivery) => delivery.succeeded)).toEqual([true, false]);

      clock.advance(DELIVERY_RETENTION_MS - 60_000);
      dispatcher.emit("order.created", { n: 3 });
      await dispatcher.drain();
      expect(store.list("webhook_delivery")).toHaveLength(3);

      clock.advance(2 * 60_000);
      dispatcher.emit("order.created", { n: 4 });
      await dispatcher.drain();
      const kept = store.list("webhook_delivery");
      expect(kept).toHaveLength(2);
      expect(kept.some((delivery) => old.some((stale) => stale.id === delivery.id))).toBe(false);
      const events = store.list("webhook_event").map((event) => [JSON.parse(event.payload).data.n, event.succeeded]);
      expect(events).toEqual([
        [2, null],
        [3, true],
        [4, true],
      ]);
      expect(receiver.received.map((request) => request.payload.data.n)).toEqual([1, 3, 4]);
    } finally {
      await dispatcher.close();
      store.close();
      await receiver.close();
    }
  });
});

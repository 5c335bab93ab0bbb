import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { createPolar } from "@polar-sh/sdk/2026-10";
import { createBillingSandbox, type BillingSandbox, type BillingSandboxOptions } from "../index";
import { responseErrors, webhookPayloadErrors } from "./openapi-validator";

/**
 * Integration harness: the sandbox on a real port, the official SDK pointed at it, a local webhook
 * receiver, and a fetch wrapper that validates every sandbox API response against the OpenAPI document.
 */

export type ReceivedWebhook = {
  headers: IncomingHttpHeaders;
  body: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
};

export type WebhookReceiver = {
  url: string;
  received: ReceivedWebhook[];
  /** Status the receiver answers with next; a function lets a test fail the first attempts. */
  respondWith: (request: ReceivedWebhook) => number;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const receiver: WebhookReceiver = { url: "", received, respondWith: () => 200, close: async () => undefined };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const entry = { headers: request.headers, body, payload: JSON.parse(body) };
      const status = receiver.respondWith(entry);
      if (status >= 200 && status < 300) received.push(entry);
      response.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "nope");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

export type Harness = {
  url: string;
  sandbox: BillingSandbox;
  polar: ReturnType<typeof createPolar>;
  receiver: WebhookReceiver;
  secret: string;
  /** Every validation problem found in sandbox responses and webhook payloads so far. */
  problems: string[];
  /** A raw request to the sandbox (for exact statuses and the sandbox controls). */
  request(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: unknown }>;
  /** Lets in-flight deliveries land, then returns how many webhooks were received: a mark for `webhooksAfter`. */
  mark(): Promise<number>;
  /** Webhooks received since the mark, in arrival order. */
  typesSince(mark: number): string[];
  close(): Promise<void>;
};

export const WEBHOOK_SECRET = "whsec_sandboxTestSecret0123456789abcdefABCDEF";

export async function startHarness(options: Partial<BillingSandboxOptions> = {}): Promise<Harness> {
  const receiver = await startReceiver();
  const problems: string[] = [];
  let port = 0;
  // Bind first so the public URL (used in checkout URLs) has the real port.
  const server: ServerType = await new Promise((resolve) => {
    const started = serve(
      { fetch: (request) => sandbox.app.fetch(request), port: 0, hostname: "127.0.0.1" },
      (info) => {
        port = info.port;
        resolve(started);
      },
    );
  });
  const url = `http://127.0.0.1:${port}`;
  const sandbox: BillingSandbox = createBillingSandbox({
    dataFile: ":memory:",
    publicUrl: url,
    webhookEndpoint: { url: receiver.url, secret: WEBHOOK_SECRET },
    webhookRetryBaseMs: 50,
    // An unhandled error is a problem of the test that caused it, not a line on the console.
    logger: {
      warn: () => undefined,
      error: (message, fields) => problems.push(`${message}: ${JSON.stringify(fields)}`),
    },
    ...options,
  });

  const realFetch = globalThis.fetch;
  const validatingFetch: typeof fetch = async (input, init) => {
    const response = await realFetch(input, init);
    const requestUrl = new URL(input instanceof Request ? input.url : String(input));
    if (requestUrl.origin === url && requestUrl.pathname.startsWith("/v1/")) {
      const method = init?.method ?? (input instanceof Request ? input.method : "GET");
      const text = await response.clone().text();
      problems.push(
        ...responseErrors(method, requestUrl.pathname, response.status, text ? JSON.parse(text) : undefined),
      );
    }
    return response;
  };
  globalThis.fetch = validatingFetch;

  const polar = createPolar({ accessToken: "anything", baseUrl: url });
  const seen = new Set<string>();
  const validateWebhooks = () => {
    for (const webhook of receiver.received) {
      const key = `${webhook.headers["webhook-id"]}:${webhook.headers["webhook-timestamp"]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      problems.push(
        ...webhookPayloadErrors(webhook.payload).map((error) => `webhook ${webhook.payload.type}: ${error}`),
      );
    }
  };

  return {
    url,
    sandbox,
    polar,
    receiver,
    secret: WEBHOOK_SECRET,
    problems,
    async request(method, path, body, token = "anything") {
      const response = await globalThis.fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    async mark() {
      await sandbox.context.webhooks.drain();
      return receiver.received.length;
    },
    typesSince(mark) {
      validateWebhooks();
      return receiver.received.slice(mark).map((webhook) => webhook.payload.type);
    },
    async close() {
      validateWebhooks();
      globalThis.fetch = realFetch;
      await sandbox.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await receiver.close();
    },
  };
}

/** Polls until `condition` returns a truthy value (no fixed sleeps); fails after `timeoutMs`. */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  timeoutMs = 5000,
  what = "condition",
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until every queued webhook has been delivered, then returns the types received after `mark`. */
export async function webhooksAfter(harness: Harness, mark: number, customerId?: string): Promise<string[]> {
  await harness.sandbox.context.webhooks.drain();
  const types = harness.typesSince(mark);
  if (!customerId) return types;
  return harness.receiver.received
    .slice(mark)
    .filter((webhook) => customerOf(webhook.payload) === customerId)
    .map((webhook) => webhook.payload.type);
}

/** The customer a webhook is about, so tests sharing one sandbox clock can follow their own customer. */
function customerOf(payload: ReceivedWebhook["payload"]): unknown {
  return payload.type.startsWith("customer.") ? payload.data.id : payload.data.customer_id;
}

/** The seeded catalogue's product ids by product name. */
export async function productIdsByName(harness: Harness): Promise<Record<string, string>> {
  const list = await harness.polar.products.list({ limit: 100 });
  return Object.fromEntries(list.items.map((product) => [product.name, product.id]));
}

/**
 * Buys a product for the customer with this external id: a checkout paid through the sandbox control, as the
 * hosted page would with 4242…. Returns the paid checkout. `customerEmail: null` sends none.
 */
export async function purchase(
  harness: Harness,
  productId: string,
  externalId: string,
  options: { customerEmail?: string | null; seats?: number } = {},
): Promise<{ id: string; subscription_id: string | null }> {
  const customerEmail = options.customerEmail === undefined ? `${externalId}@example.test` : options.customerEmail;
  const checkout = await harness.polar.checkouts.create({
    products: [productId],
    external_customer_id: externalId,
    ...(customerEmail ? { customer_email: customerEmail } : {}),
    ...(options.seats ? { seats: options.seats } : {}),
  });
  const completed = await harness.request("POST", `/sandbox/checkouts/${checkout.id}/complete`, {});
  if (completed.status !== 200)
    throw new Error(`the checkout was not paid: ${completed.status} ${JSON.stringify(completed.body)}`);
  return completed.body as { id: string; subscription_id: string | null };
}

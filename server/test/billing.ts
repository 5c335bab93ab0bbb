import { Webhook } from "standardwebhooks";
import type { PlanCatalogue } from "../../common/billing.schemas";
import type { TestClient } from "./request";
import type { TestApp } from "./test-database";

/**
 * Billing test helpers: the app runs on a real port (`createTestApp({ listen: true })`), its provider client
 * talks to the sandbox mounted in it, and the sandbox delivers signed webhooks to it over HTTP.
 */

export const SANDBOX = "/sandbox/polar";

/** Waits until the sandbox has delivered every due webhook and the app has applied every stored one. */
export async function settleBilling(server: TestApp): Promise<void> {
  const sandbox = server.services.sandbox;
  if (!sandbox) throw new Error("the billing sandbox is not running");
  for (let round = 0; round < 3; round += 1) {
    await sandbox.context.webhooks.drain();
    await server.services.billingWorker.drain();
  }
}

/** A raw call to the sandbox (its controls, or the provider API) with the organization token. */
export async function sandboxCall(
  server: TestApp,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.config.baseUrl}${SANDBOX}${path}`, {
    method,
    headers: {
      authorization: "Bearer test-token",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The provider checkout behind a hosted-page URL the app answered with. */
export async function checkoutIdOf(server: TestApp, url: string): Promise<string> {
  const secret = new URL(url).pathname.split("/").at(-1) ?? "";
  const checkout = await sandboxCall(server, "GET", `/v1/checkouts/client/${secret}`);
  if (checkout.status !== 200)
    throw new Error(`checkout lookup failed: ${checkout.status} ${JSON.stringify(checkout.body)}`);
  return String(checkout.body.id);
}

/** The product id of a plan family and interval, from the app's own catalogue. */
export async function productIdOf(
  client: TestClient,
  plan: string,
  interval: "month" | "year" = "month",
): Promise<string> {
  const catalogue = (await client.get("/api/billing/plans")).data as PlanCatalogue;
  const price = catalogue.plans
    .find((candidate) => candidate.key === plan)
    ?.prices.find((candidate) => candidate.interval === interval);
  if (!price) throw new Error(`no ${interval} price for plan ${plan}`);
  return price.productId;
}

/**
 * Subscribes an organization through the whole flow: the app's checkout, payment at the sandbox (as the hosted
 * page would), then the webhooks. Returns the provider checkout id. `pay: false` declines the card instead.
 */
export async function subscribe(
  server: TestApp,
  owner: { client: TestClient },
  organizationId: string,
  body: { productId: string; seats?: number; discountCode?: string },
  options: { pay?: boolean } = {},
): Promise<string> {
  const started = await owner.client.post(`/api/organizations/${organizationId}/billing/checkout`, body);
  if (started.status !== 200) throw new Error(`checkout failed: ${started.status} ${JSON.stringify(started.data)}`);
  const checkoutId = await checkoutIdOf(server, (started.data as { url: string }).url);
  const paid = await sandboxCall(
    server,
    "POST",
    `/sandbox/checkouts/${checkoutId}/${options.pay === false ? "fail" : "complete"}`,
    {
      customer_email: "billing@example.com",
      customer_name: "Billing Person",
    },
  );
  if (paid.status !== 200) throw new Error(`payment failed: ${paid.status} ${JSON.stringify(paid.body)}`);
  await settleBilling(server);
  return checkoutId;
}

/**
 * The provider's `webhook-signature` for a delivery, made by the Standard Webhooks library: keyed with the UTF-8 bytes
 * of the whole `whsec_…` secret (the provider's convention, not the library's base64 one), or with `secret`'s own
 * bytes when it is already bytes.
 */
export function signWebhook(secret: string | Uint8Array, id: string, timestampSeconds: number, body: string): string {
  const key = typeof secret === "string" ? Buffer.from(secret, "utf8") : secret;
  return new Webhook(key, { format: "raw" }).sign(id, new Date(timestampSeconds * 1000), body);
}

/** Posts one delivery to a server's webhook endpoint as the provider would, signed with `secret`: its status. */
export async function postSignedWebhook(
  baseUrl: string,
  secret: string,
  message: { id: string; body: string },
): Promise<number> {
  const seconds = Math.floor(Date.now() / 1000);
  const timestamp = String(seconds);
  const signature = signWebhook(secret, message.id, seconds, message.body);
  const response = await fetch(`${baseUrl}/api/billing/webhooks`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-id": message.id,
      "webhook-timestamp": timestamp,
      "webhook-signature": signature,
    },
    body: message.body,
    signal: AbortSignal.timeout(10_000),
  });
  await response.text();
  return response.status;
}

/** Runs `run` while the sandbox's webhook endpoint is disabled (a provider whose deliveries do not arrive). */
export async function withWebhooksOff(server: TestApp, run: () => Promise<void>): Promise<void> {
  const endpoints = (await sandboxCall(server, "GET", "/v1/webhooks/endpoints")).body.items as Array<{ id: string }>;
  const endpoint = endpoints[0]?.id;
  const disabled = await sandboxCall(server, "PATCH", `/v1/webhooks/endpoints/${endpoint}`, { enabled: false });
  if (disabled.status !== 200) throw new Error(`could not disable the webhooks: ${disabled.status}`);
  try {
    await run();
  } finally {
    await sandboxCall(server, "PATCH", `/v1/webhooks/endpoints/${endpoint}`, { enabled: true });
  }
}

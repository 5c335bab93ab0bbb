import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { createOrganizationWithOwner, createVerifiedUser, signInOnNewClient, type TestUser } from "../test/factories";
import { createClient, randomIp } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

/**
 * The app's own writes (outside /api/auth) are refused from foreign pages and rate limited: the origin check and the
 * write limits in front of every route (server/http/middleware/trusted-origin.ts, rate-limit.ts), with the default
 * limits (BILLING_CALLS_PER_MINUTE unset: 10 provider calls a minute per user).
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const FOREIGN_ORIGIN = "https://evil.example.test";
const PARTNER_ORIGIN = "https://partner.example.test";
const METRICS_TOKEN = "metrics-token-for-the-guard-test";
const USAGE = { meter: "api_request", quantity: 1 };
const ADMIN_EMAIL = `guard-admin.${randomBytes(4).toString("hex")}@example.test`;

let server: TestApp;
let owner: TestUser;
let organizationId: string;

beforeAll(async () => {
  server = await createTestApp({
    listen: true,
    env: {
      BILLING_CALLS_PER_MINUTE: undefined,
      TRUSTED_ORIGINS: PARTNER_ORIGIN,
      METRICS_TOKEN,
      ADMIN_EMAILS: ADMIN_EMAIL,
    },
  });
  owner = await createVerifiedUser(server, { label: "guard-owner" });
  organizationId = (await createOrganizationWithOwner(owner, "Guarded")).id;
});

afterAll(async () => server?.close());

afterEach(() => {
  vi.restoreAllMocks();
});

async function scrape(): Promise<string> {
  const authorization = `Bearer ${METRICS_TOKEN}`;
  const response = await createClient(server).get("/metrics", { headers: { Authorization: authorization } });
  expect(response.status).toBe(200);
  return response.data as string;
}

function sampleOf(text: string, series: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe("the origin check", () => {
  test("a foreign Origin is refused on an organization's route, a billing route and an admin route", async () => {
    const admin = await createVerifiedUser(server, { label: "guard-admin", email: ADMIN_EMAIL });
    const usage = vi.spyOn(server.services.billing, "recordUsage");
    const portal = vi.spyOn(server.services.billing, "portal");
    const reconcile = vi.spyOn(server.services.billing, "reconcile");
    const writes = [
      { client: owner.client, path: `/api/organizations/${organizationId}/billing/usage`, body: USAGE },
      { client: owner.client, path: `/api/organizations/${organizationId}/billing/portal`, body: {} },
      { client: admin.client, path: `/api/admin/billing/organizations/${organizationId}/reconcile`, body: {} },
    ];
    for (const { client, path, body } of writes) {
      const response = await client.post(path, body, { origin: FOREIGN_ORIGIN });
      expect(response.status, path).toBe(403);
      const requestId = response.headers.get("X-Request-Id");
      expect(response.data).toEqual({ code: "INVALID_ORIGIN", message: "Invalid origin", requestId });
    }
    expect(usage).not.toHaveBeenCalled();
    expect(portal).not.toHaveBeenCalled();
    expect(reconcile).not.toHaveBeenCalled();
  });

  test("a text/plain POST from a foreign page never reaches the portal: no provider call", async () => {
    const portal = vi.spyOn(server.services.billing, "portal");
    const response = await owner.client.request(`/api/organizations/${organizationId}/billing/portal`, {
      method: "POST",
      body: "{}",
      contentType: "text/plain",
      origin: FOREIGN_ORIGIN,
    });
    expect(response.status).toBe(403);
    expect(response.data).toMatchObject({ code: "INVALID_ORIGIN" });
    expect(portal).not.toHaveBeenCalled();
  });

  test("a cookie-carrying write naming no origin is refused; one without cookies is left to the route", async () => {
    const path = `/api/organizations/${organizationId}/billing/usage`;
    const missing = await owner.client.post(path, USAGE, { origin: null });
    expect(missing.status).toBe(403);
    expect(missing.data).toMatchObject({ code: "MISSING_OR_NULL_ORIGIN", message: "Missing or null Origin" });
    const nullOrigin = await owner.client.post(path, USAGE, { origin: "null" });
    expect(nullOrigin.data).toMatchObject({ code: "MISSING_OR_NULL_ORIGIN" });
    // A foreign Referer counts as the origin when there is none, as better-auth reads it.
    const foreignReferer = { Referer: `${FOREIGN_ORIGIN}/page` };
    const referred = await owner.client.post(path, USAGE, { origin: null, headers: foreignReferer });
    expect(referred.data).toMatchObject({ code: "INVALID_ORIGIN" });
    const anonymous = await owner.client.post(path, USAGE, { origin: null, withoutCookies: true });
    expect(anonymous.status).toBe(401);
  });

  test("the app's own origin, a trusted origin and the app's own Referer pass", async () => {
    const portal = vi.spyOn(server.services.billing, "portal");
    const path = `/api/organizations/${organizationId}/billing/usage`;
    const ownReferer = { origin: null, headers: { Referer: `${server.config.baseUrl}/settings` } };
    for (const options of [{}, { origin: PARTNER_ORIGIN }, ownReferer]) {
      const response = await owner.client.post(path, { meter: "api_request", quantity: 1, key: randomUUID() }, options);
      expect(response.status, JSON.stringify(options)).toBe(202);
    }
    const portalPath = `/api/organizations/${organizationId}/billing/portal`;
    const opened = await owner.client.post(portalPath, {}, { origin: PARTNER_ORIGIN });
    expect(opened.status).not.toBe(403);
    expect(portal).toHaveBeenCalledTimes(1);
  });

  test("the provider's signed webhooks and the billing sandbox keep their own checks", async () => {
    const unsigned = await createClient(server).post("/api/billing/webhooks", { type: "ping" }, { origin: null });
    expect(unsigned.status).toBe(400);
    expect(unsigned.data).toMatchObject({ code: "WEBHOOK_VERIFICATION_FAILED" });
    const customer = { email: "x@example.test" };
    const stranger = createClient(server);
    const sandbox = await stranger.post("/sandbox/polar/v1/customers/", customer, { origin: FOREIGN_ORIGIN });
    expect(sandbox.data).not.toMatchObject({ code: "INVALID_ORIGIN" });
  });
});

describe("the write limits", () => {
  test("the portal answers 429 with Retry-After after 10 calls a minute, counted in /metrics", async () => {
    const series = 'atrium_rate_limit_rejections_total{rule="app:billing-provider"}';
    const before = sampleOf(await scrape(), series);
    const user = await createVerifiedUser(server, { label: "guard-portal" });
    const path = `/api/organizations/${(await createOrganizationWithOwner(user, "Portal")).id}/billing/portal`;
    const portal = vi.spyOn(server.services.billing, "portal");
    const statuses: number[] = [];
    for (let call = 0; call < 10; call += 1) statuses.push((await user.client.post(path)).status);
    expect(statuses).not.toContain(429);
    // From another browser and address too: the limit is the user's.
    const elsewhere = await signInOnNewClient(server, user.input);
    expect(elsewhere.ip).not.toBe(user.client.ip);
    const limited = await elsewhere.post(path);
    expect(limited.status).toBe(429);
    const message = "Too many requests. Please try again later.";
    expect(limited.data).toMatchObject({ code: "TOO_MANY_REQUESTS", message });
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get("Retry-After"))).toBeLessThanOrEqual(60);
    expect(portal).toHaveBeenCalledTimes(10);
    expect(sampleOf(await scrape(), series)).toBe(before + 1);
  });

  test("any other write answers 429 after 60 a minute per user, counted in /metrics", async () => {
    const series = 'atrium_rate_limit_rejections_total{rule="app:default"}';
    const before = sampleOf(await scrape(), series);
    const user = await createVerifiedUser(server, { label: "guard-writer" });
    const { id } = await createOrganizationWithOwner(user, "Writes");
    const path = `/api/organizations/${id}/billing/usage`;
    // Refused by validation, but counted: the limit comes first.
    const statuses: number[] = [];
    for (let call = 0; call < 60; call += 1) statuses.push((await user.client.post(path, {})).status);
    expect(new Set(statuses)).toEqual(new Set([400]));
    const limited = await user.client.post(path, USAGE);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(sampleOf(await scrape(), series)).toBe(before + 1);
  });

  test("a client address is limited without a session (30 provider calls a minute)", async () => {
    const client = createClient(server, randomIp());
    const path = `/api/organizations/${organizationId}/billing/checkout`;
    const statuses: number[] = [];
    const anonymously = { withoutCookies: true };
    for (let call = 0; call < 30; call += 1) statuses.push((await client.post(path, {}, anonymously)).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
    const limited = await client.post(path, {}, anonymously);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
  });
});

describe("with Redis", () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    // Two instances on two databases: what they share of the counts can only be through Redis.
    const env = { REDIS_URL, BILLING_CALLS_PER_MINUTE: undefined };
    first = await createTestApp({ env });
    second = await createTestApp({ env });
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  test("two instances share one address's count", async () => {
    const ip = randomIp();
    const path = `/api/organizations/${randomUUID()}/billing/portal`;
    const statuses: number[] = [];
    for (let call = 0; call < 30; call += 1) {
      const target = call % 2 === 0 ? first : second;
      statuses.push((await createClient(target, ip).post(path, {}, { withoutCookies: true })).status);
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    const limited = await createClient(first, ip).post(path, {}, { withoutCookies: true });
    expect(limited.status).toBe(429);
    expect((await createClient(second, ip).post(path, {}, { withoutCookies: true })).status).toBe(429);
  });
});

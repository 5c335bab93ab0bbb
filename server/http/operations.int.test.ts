import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { createApp } from "../app";
import { createLogger } from "../logger";
import { createVerifiedUser } from "../test/factories";
import { createClient, randomIp } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

/**
 * Request ids, metrics and health endpoints through the whole app, on the database of the run: the id a trusted
 * proxy sends is kept and any other is replaced, every answer (a replayed one too) and every error body and log
 * line of a request carry it; /metrics is published only with a token and counts what happened.
 */

const PROXY = "10.20.30.40";
const TOKEN = "metrics-token-for-the-operations-test";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let app: TestApp;
/** The SQL statements the app issued, to tell a replayed answer (none) from a computed one. */
const statements: string[] = [];
/**
 * The read cache's clock, stopped: the cache answers only while its last read of the change feed is recent, and on a
 * busy machine a second may pass between two requests. The feed is read when the test says so (`pollNow`), never
 * by a background poll, whose statements would also land among a request's.
 */
const stoppedClock = Date.now();

beforeAll(async () => {
  app = await createTestApp({
    env: { TRUSTED_PROXIES: PROXY, METRICS_TOKEN: TOKEN },
    logger: createLogger("warn"),
    onQuery: (text) => statements.push(text),
    readCache: { poll: false, now: () => stoppedClock },
  });
});

afterAll(async () => {
  await app?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The value of one sample in a Prometheus text answer; undefined when the series is absent. */
function sampleOf(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(): Promise<string> {
  const response = await createClient(app).get("/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.data as string;
}

describe("request ids", () => {
  test("a request without one gets a new id, different for every request", async () => {
    const client = createClient(app);
    const first = await client.get("/livez");
    const second = await client.get("/livez");
    expect(first.status).toBe(200);
    expect(first.headers.get("X-Request-Id")).toMatch(UUID);
    expect(second.headers.get("X-Request-Id")).toMatch(UUID);
    expect(second.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));
  });

  test("the id a trusted proxy sends is kept, in the header and in an error body", async () => {
    const sent = `lb-${randomUUID()}:1.a_b`;
    const response = await createClient(app, PROXY).get("/api/nothing-here", { headers: { "X-Request-Id": sent } });
    expect(response.status).toBe(404);
    expect(response.headers.get("X-Request-Id")).toBe(sent);
    expect(response.data).toEqual({ code: "NOT_FOUND", message: "No endpoint GET /api/nothing-here", requestId: sent });
  });

  test("an id from a peer that is not a trusted proxy, or one that is not a sane token, is replaced", async () => {
    const sent = `client-chosen-${randomUUID()}`;
    const untrusted = await createClient(app).get("/livez", { headers: { "X-Request-Id": sent } });
    expect(untrusted.headers.get("X-Request-Id")).toMatch(UUID);
    for (const bad of ["has spaces in it", "a".repeat(129), 'quote"', "semi;colon", "ünïcode"]) {
      const response = await createClient(app, PROXY).get("/livez", { headers: { "X-Request-Id": bad } });
      expect(response.headers.get("X-Request-Id"), bad).toMatch(UUID);
    }
    const longest = "b".repeat(128);
    expect(
      (await createClient(app, PROXY).get("/livez", { headers: { "X-Request-Id": longest } })).headers.get(
        "X-Request-Id",
      ),
    ).toBe(longest);
  });

  test("a log line written while handling a request carries its id, the same as the answer's", async () => {
    const lines: Array<Record<string, unknown>> = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      for (const line of String(chunk).split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      return true;
    });
    // X-Forwarded-For from a peer that is not a trusted proxy is ignored with a warning (the first time).
    const response = await createClient(app).get("/api/still-nothing", {
      headers: { "X-Forwarded-For": "203.0.113.9" },
    });
    vi.restoreAllMocks();
    const requestId = response.headers.get("X-Request-Id");
    expect(response.status).toBe(404);
    expect(response.data).toEqual({ code: "NOT_FOUND", message: "No endpoint GET /api/still-nothing", requestId });
    expect(lines).toEqual([
      expect.objectContaining({
        level: "warn",
        message: expect.stringMatching(/^X-Forwarded-For from a peer/),
        requestId,
      }),
    ]);
  });

  test("a replayed answer gets its own id and is counted under its route", async () => {
    const user = await createVerifiedUser(app);
    const series = 'http_requests_total{method="GET",route="/api/auth/get-session",status="200"}';
    const before = sampleOf(await scrape(), series) ?? 0;
    const ids: Array<string | null> = [];
    await app.services.readCache.pollNow();
    // The second read of the same session is kept; the third is replayed without a statement.
    for (let read = 0; read < 3; read += 1) {
      statements.length = 0;
      const response = await user.client.get("/api/auth/get-session");
      expect(response.status).toBe(200);
      ids.push(response.headers.get("X-Request-Id"));
    }
    expect(statements).toEqual([]);
    expect(ids.every((id) => UUID.test(id ?? ""))).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(sampleOf(await scrape(), series)).toBe(before + 3);
  });
});

describe("/metrics", () => {
  test("answers only the bearer of METRICS_TOKEN", async () => {
    const client = createClient(app);
    for (const authorization of [
      undefined,
      "Bearer wrong-token-of-some-length",
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
    ]) {
      const response = await client.get("/metrics", { headers: authorization ? { Authorization: authorization } : {} });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get("WWW-Authenticate")).toBe('Bearer realm="metrics"');
      expect(response.data).toEqual({
        code: "UNAUTHORIZED",
        message: "The metrics need the bearer token set in METRICS_TOKEN",
        requestId: response.headers.get("X-Request-Id"),
      });
    }
    const response = await client.get("/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  });

  test("is not published without METRICS_TOKEN", async () => {
    const unpublished = createApp({
      ...app.services,
      config: { ...app.config, metricsToken: undefined },
      logger: createLogger("silent"),
    });
    const response = await createClient({ app: unpublished, config: app.config }).get("/metrics", {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(404);
    expect(response.data).toEqual({
      code: "NOT_FOUND",
      message: "Not found",
      requestId: response.headers.get("X-Request-Id"),
    });
  });

  test("counts requests by method, route pattern and status, with their durations", async () => {
    const before = await scrape();
    const client = createClient(app);
    for (let index = 0; index < 3; index += 1) expect((await client.get("/livez")).status).toBe(200);
    expect((await client.get(`/api/organizations/${randomUUID()}/audit-log`)).status).toBe(401);
    expect((await client.request("/livez", { method: "BREW" })).status).toBe(404);
    const after = await scrape();
    const delta = (series: string) => (sampleOf(after, series) ?? 0) - (sampleOf(before, series) ?? 0);
    expect(delta('http_requests_total{method="GET",route="/livez",status="200"}')).toBe(3);
    expect(delta('http_request_duration_seconds_count{method="GET",route="/livez"}')).toBe(3);
    expect(delta('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/livez"}')).toBe(3);
    expect(sampleOf(after, 'http_request_duration_seconds_sum{method="GET",route="/livez"}')).toBeGreaterThan(0);
    expect(sampleOf(after, 'http_request_duration_seconds_bucket{le="10",method="GET",route="/livez"}')).toBe(
      sampleOf(after, 'http_request_duration_seconds_count{method="GET",route="/livez"}'),
    );
    // The pattern, not the path: one series whatever the organization (here the session guard's, which refused).
    expect(delta('http_requests_total{method="GET",route="/api/organizations/:organizationId/*",status="401"}')).toBe(
      1,
    );
    expect(after).not.toMatch(/route="\/api\/organizations\/[0-9a-f]{8}-/);
    // A method a client invents is counted as OTHER.
    expect(after).not.toContain("BREW");
    expect(after).toMatch(/^http_requests_total\{method="OTHER",route="[^"]+",status="404"\} \d+$/m);
  });

  test("counts rate-limit rejections by rule", async () => {
    const series = 'atrium_rate_limit_rejections_total{rule="/sign-in/*"}';
    const before = sampleOf(await scrape(), series) ?? 0;
    const client = createClient(app, randomIp());
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      statuses.push(
        (await client.post("/api/auth/sign-in/email", { email: "nobody@example.test", password: "not-the-password" }))
          .status,
      );
    }
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 401), 429]);
    expect(sampleOf(await scrape(), series)).toBe(before + 1);
  });

  test("reports the mail outbox and billing backlogs read from the database, and the database pool", async () => {
    const now = Date.now();
    const minutesAgo = (minutes: number) => new Date(now - minutes * 60_000).toISOString();
    const notDueUntil = new Date(now + 3_600_000).toISOString();
    await app.db
      .insertInto("mail_outbox")
      .values({
        id: randomUUID(),
        to_address: "backlog@example.test",
        subject: "Waiting",
        text_body: "text",
        html_body: "<p>html</p>",
        status: "pending",
        attempts: 1,
        next_attempt_at: notDueUntil,
        last_error: null,
        created_at: minutesAgo(2),
        sent_at: null,
      })
      .execute();
    for (const [status, receivedMinutesAgo] of [
      ["pending", 5],
      ["failed", 30],
    ] as const) {
      await app.db
        .insertInto("billing_webhook_event")
        .values({
          id: randomUUID(),
          type: "subscription.updated",
          payload: "{}",
          status,
          attempts: 1,
          next_attempt_at: notDueUntil,
          received_at: minutesAgo(receivedMinutesAgo),
        })
        .execute();
    }
    const text = await scrape();
    expect(sampleOf(text, "atrium_database_up")).toBe(1);
    expect(sampleOf(text, "atrium_mail_outbox_pending")).toBe(1);
    expect(sampleOf(text, "atrium_mail_outbox_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(120);
    expect(sampleOf(text, "atrium_mail_outbox_oldest_pending_age_seconds")).toBeLessThan(180);
    expect(sampleOf(text, 'atrium_billing_webhook_events{status="pending"}')).toBe(1);
    expect(sampleOf(text, 'atrium_billing_webhook_events{status="failed"}')).toBe(1);
    expect(sampleOf(text, "atrium_billing_webhook_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(300);
    expect(sampleOf(text, "atrium_billing_webhook_oldest_pending_age_seconds")).toBeLessThan(360);
    expect(sampleOf(text, 'atrium_billing_usage_events{status="pending"}')).toBe(0);
    expect(sampleOf(text, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(text).toContain("# TYPE http_request_duration_seconds histogram\n");
    if (app.dialect === "postgres") {
      expect(sampleOf(text, 'atrium_database_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(1);
      expect(sampleOf(text, "atrium_database_pool_waiting_queries")).toBe(0);
    } else {
      expect(text).not.toContain("atrium_database_pool");
    }
  });
});

describe("health endpoints", () => {
  test("/livez, /readyz and /healthz answer 200 while the process serves and the database answers", async () => {
    const client = createClient(app);
    expect((await client.get("/livez")).data).toEqual({ status: "ok" });
    const ready = await client.get("/readyz");
    expect([ready.status, ready.data]).toEqual([200, { status: "ready" }]);
    const health = await client.get("/healthz");
    expect([health.status, health.data]).toEqual([200, { status: "ok" }]);
  });

  test("/readyz answers 503 naming the shutdown once the process is shutting down; /livez stays 200", async () => {
    const stopping = createApp({
      ...app.services,
      config: app.config,
      logger: createLogger("silent"),
      readiness: { isShuttingDown: () => true },
    });
    const client = createClient({ app: stopping, config: app.config });
    const ready = await client.get("/readyz");
    expect(ready.status).toBe(503);
    expect(ready.data).toEqual({
      status: "unavailable",
      code: "SERVICE_UNAVAILABLE",
      message: "The server is shutting down",
      notReady: ["shutdown"],
      requestId: ready.headers.get("X-Request-Id"),
    });
    expect((await client.get("/livez")).status).toBe(200);
  });

  test("/readyz and /healthz answer 503 naming the database when it does not answer; /livez stays 200", async () => {
    const database = { ...app.services.database, ping: () => Promise.reject(new Error("connection refused")) };
    const cut = createApp({ ...app.services, database, config: app.config, logger: createLogger("silent") });
    const client = createClient({ app: cut, config: app.config });
    const ready = await client.get("/readyz");
    expect(ready.status).toBe(503);
    expect(ready.data).toEqual({
      status: "unavailable",
      code: "SERVICE_UNAVAILABLE",
      message: "The database does not answer",
      notReady: ["database"],
      requestId: ready.headers.get("X-Request-Id"),
    });
    const health = await client.get("/healthz");
    expect(health.status).toBe(503);
    expect(health.data).toEqual({
      status: "unavailable",
      code: "SERVICE_UNAVAILABLE",
      message: "The database does not answer",
      requestId: health.headers.get("X-Request-Id"),
    });
    expect((await client.get("/livez")).status).toBe(200);
  });
});

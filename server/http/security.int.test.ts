import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildUser, createVerifiedUser, getSession, signUp } from "../test/factories";
import { cheapSignIn, SIGN_IN_LIMIT, signInStatuses } from "../test/rate-limit";
import { createClient, randomIp, readJson } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";
import { CLIENT_IP_HEADER } from "./middleware/client-ip";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const FOREIGN_ORIGIN = "https://evil.example.test";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});

afterAll(async () => {
  await app?.close();
});

describe("security headers", () => {
  test("every answer carries CSP with frame-ancestors 'none', nosniff and Referrer-Policy; no HSTS on http", async () => {
    for (const path of ["/healthz", "/api/auth/get-session", "/api/nothing-here"]) {
      const response = await createClient(app).get(path);
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("strict-transport-security")).toBeNull();
    }
  });
});

describe("request bodies", () => {
  const overOneMegabyte = JSON.stringify({
    name: "x".repeat(1024 * 1024),
    email: "a@example.test",
    password: "long-enough",
  });

  test("a body over 1 MB is answered with 413, with or without Content-Length", async () => {
    const withLength = await createClient(app).request("/api/auth/sign-up/email", {
      method: "POST",
      body: overOneMegabyte,
      contentType: "application/json",
      headers: { "content-length": String(Buffer.byteLength(overOneMegabyte)) },
    });
    expect(withLength.status).toBe(413);
    expect(await readJson(withLength)).toEqual({
      code: "PAYLOAD_TOO_LARGE",
      message: "The request body is larger than 1 MB",
      requestId: expect.any(String),
    });

    const encoder = new TextEncoder();
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(overOneMegabyte));
        controller.close();
      },
    });
    const withoutLength = await createClient(app).request("/api/auth/sign-up/email", {
      method: "POST",
      body: streamed,
      contentType: "application/json",
    });
    expect(withoutLength.status).toBe(413);
  });

  test("a body just under 1 MB is read (and refused for its content, not its size)", async () => {
    const body = JSON.stringify({ email: "not-an-email", password: "x".repeat(1000 * 1000) });
    const response = await createClient(app).request("/api/auth/sign-up/email", {
      method: "POST",
      body,
      contentType: "application/json",
    });
    expect(response.status).toBe(400);
  });

  test("invalid JSON gets a 4xx, never a 5xx", async () => {
    for (const path of [
      "/api/auth/sign-up/email",
      "/api/auth/sign-in/email",
      "/api/auth/sign-in/username",
      "/api/auth/is-username-available",
    ]) {
      const response = await createClient(app).request(path, {
        method: "POST",
        body: '{"email": "a@example.test", ',
        contentType: "application/json",
      });
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
    }
  });

  test("wrong content types get a 4xx, never a 5xx", async () => {
    const cases: Array<{ contentType?: string; body: string }> = [
      { contentType: "text/plain", body: JSON.stringify(buildUser()) },
      { contentType: "application/xml", body: "<user/>" },
      { contentType: "multipart/form-data; boundary=x", body: "--x--" },
      { body: "" },
    ];
    for (const { contentType, body } of cases) {
      const response = await createClient(app).request("/api/auth/sign-up/email", {
        method: "POST",
        body,
        contentType,
      });
      expect(response.status, contentType).toBeGreaterThanOrEqual(400);
      expect(response.status, contentType).toBeLessThan(500);
    }
  });

  test("fields of the wrong type get a 400, never a 5xx", async () => {
    const cases: Array<[string, unknown]> = [
      ["/api/auth/sign-up/email", { ...buildUser(), email: 42 }],
      ["/api/auth/sign-up/email", { ...buildUser(), password: { length: 12 } }],
      ["/api/auth/sign-up/email", { ...buildUser(), username: ["alice"] }],
      ["/api/auth/sign-up/email", { ...buildUser(), name: null }],
      ["/api/auth/sign-up/email", { ...buildUser(), displayUsername: 5 }],
      ["/api/auth/sign-up/email", [1, 2, 3]],
      ["/api/auth/sign-in/email", { email: "a@example.test", password: 12345678 }],
      ["/api/auth/sign-in/username", { username: 12345, password: "whatever-password" }],
      ["/api/auth/sign-in/username", { username: "alice", password: ["x"] }],
      ["/api/auth/is-username-available", { username: { $ne: null } }],
      ["/api/auth/request-password-reset", { email: true }],
      ["/api/auth/reset-password", { token: 1, newPassword: 2 }],
      ["/api/auth/send-verification-email", { email: ["a@example.test"] }],
    ];
    for (const [path, body] of cases) {
      const response = await createClient(app).post(path, body);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
    }
  });

  test("update-user refuses fields of the wrong type with 400 and stores nothing", async () => {
    const { client, input } = await createVerifiedUser(app);
    for (const body of [
      { username: 5 },
      { username: ["abc"] },
      { name: 5 },
      { name: null },
      { image: 5 },
      { displayUsername: { a: 1 } },
    ]) {
      const response = await client.post("/api/auth/update-user", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await readJson<{ code: string }>(response)).code).toBe("VALIDATION_ERROR");
    }
    const session = await readJson<{ user: { name: string; username: string; image: string | null } }>(
      await client.get("/api/auth/get-session"),
    );
    expect(session.user).toMatchObject({ name: input.name, username: input.username, image: null });
  });

  test("the app's own endpoints answer bad input with 4xx too", async () => {
    const response = await createClient(app).get("/api/dev/mail?limit=many");
    expect(response.status).toBe(400);
    expect((await readJson<{ code: string }>(response)).code).toBe("VALIDATION_ERROR");
  });
});

describe("origin and CSRF check", () => {
  test("a cookie-bearing request from a foreign Origin is refused with 403 and changes nothing", async () => {
    const { client, input } = await createVerifiedUser(app);
    const response = await client.post(
      "/api/auth/update-user",
      { name: "Changed by evil" },
      { origin: FOREIGN_ORIGIN },
    );
    expect(response.status).toBe(403);
    expect((await readJson<{ code: string }>(response)).code).toBe("INVALID_ORIGIN");
    const signOut = await client.post("/api/auth/revoke-sessions", {}, { origin: FOREIGN_ORIGIN });
    expect(signOut.status).toBe(403);
    // Still signed in (the refused revoke-sessions ended nothing), under the name given at sign-up.
    expect((await getSession(client))?.user.name).toBe(input.name);
  });

  test("a cookie-bearing write with no Origin or Referer is refused with 403", async () => {
    const { client } = await createVerifiedUser(app);
    const response = await client.post("/api/auth/update-user", { name: "No origin" }, { origin: null });
    expect(response.status).toBe(403);
    expect((await readJson<{ code: string }>(response)).code).toBe("MISSING_OR_NULL_ORIGIN");
  });

  test("a sign-in posted from a foreign Origin is refused with 403", async () => {
    const { input } = await createVerifiedUser(app);
    const response = await createClient(app).post(
      "/api/auth/sign-in/email",
      { email: input.email, password: input.password },
      { origin: FOREIGN_ORIGIN },
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  test("a cross-site navigation posting a sign-in form is refused with 403", async () => {
    const { input } = await createVerifiedUser(app);
    const response = await createClient(app).post(
      "/api/auth/sign-in/email",
      { email: input.email, password: input.password },
      {
        origin: null,
        headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" },
      },
    );
    expect(response.status).toBe(403);
  });
});

describe("session cookie", () => {
  test("is HttpOnly and SameSite=Lax, and not Secure on an http BASE_URL", async () => {
    const { input } = await createVerifiedUser(app);
    const client = createClient(app);
    const response = await client.post("/api/auth/sign-in/email", { email: input.email, password: input.password });
    expect(response.status).toBe(200);
    // Whatever better-auth names its cookies, every one sign-in sets is out of scripts' and other sites' reach.
    const cookies = response.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      expect(cookie).not.toMatch(/;\s*Secure/i);
    }
    expect((await getSession(client))?.user.email).toBe(input.email);
  });
});

describe("on an https BASE_URL", () => {
  let httpsApp: TestApp;

  beforeAll(async () => {
    httpsApp = await createTestApp({
      env: { BASE_URL: "https://atrium.example.test", DEVELOPMENT_DEPLOYMENT: "true" },
    });
  });

  afterAll(async () => {
    await httpsApp?.close();
  });

  test("HSTS is sent and the session cookie is Secure, HttpOnly and SameSite=Lax", async () => {
    const health = await createClient(httpsApp).get("/healthz");
    expect(health.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");

    const { input } = await createVerifiedUser(httpsApp);
    const client = createClient(httpsApp);
    const response = await client.post("/api/auth/sign-in/email", { email: input.email, password: input.password });
    expect(response.status).toBe(200);
    const cookies = response.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    }
    expect((await getSession(client))?.user.email).toBe(input.email);
  });
});

describe("rate limits (database store)", () => {
  test(`the ${SIGN_IN_LIMIT + 1}th sign-in attempt from one address within a minute gets 429; another address is unaffected`, async () => {
    const ip = randomIp();
    expect(await signInStatuses(app, ip)).toEqual(Array(SIGN_IN_LIMIT).fill(422));
    const blocked = await cheapSignIn(app, ip);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("x-retry-after"))).toBeGreaterThan(0);
    expect((await cheapSignIn(app, randomIp())).status).toBe(422);
  });

  test("the counters live in the database: a second app instance on it refuses the same address", async () => {
    const ip = randomIp();
    await signInStatuses(app, ip);
    const other = await createTestApp({ database: app.database });
    try {
      expect((await cheapSignIn(other, ip)).status).toBe(429);
      expect((await cheapSignIn(other, randomIp())).status).toBe(422);
    } finally {
      await other.close();
    }
  });

  test("a spoofed X-Forwarded-For from an untrusted socket does not escape the limit", async () => {
    const ip = randomIp();
    await signInStatuses(app, ip);
    const spoofed = await cheapSignIn(app, ip, { "x-forwarded-for": randomIp() });
    expect(spoofed.status).toBe(429);
    const spoofedInternal = await cheapSignIn(app, ip, { [CLIENT_IP_HEADER]: randomIp() });
    expect(spoofedInternal.status).toBe(429);
  });

  test("path variants (double slashes, a trailing slash, dot segments) neither escape the limit nor reach the endpoint", async () => {
    const ip = randomIp();
    await signInStatuses(app, ip);
    for (const path of [
      "/api/auth//sign-in/username",
      "//api/auth/sign-in/username",
      "/api/auth/sign-in/username/",
      "/api/auth/sign-in/./username",
      "/api/auth/sign-in//username",
    ]) {
      const response = await createClient(app, ip).post(path, { username: "ab", password: "whatever-password" });
      expect([404, 429], path).toContain(response.status);
    }
  });

  test("IPv6 clients of one /64 share a bucket", async () => {
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`;
    await signInStatuses(app, `${prefix}::1`);
    expect((await cheapSignIn(app, `${prefix}::2`)).status).toBe(429);
  });

  test("password-reset requests are limited to 5 per 5 minutes", async () => {
    const client = createClient(app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push((await client.post("/api/auth/request-password-reset", { email: buildUser().email })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe("behind a trusted proxy", () => {
  let proxiedApp: TestApp;
  const proxy = "10.20.30.40";

  beforeAll(async () => {
    proxiedApp = await createTestApp({ env: { TRUSTED_PROXIES: proxy } });
  });

  afterAll(async () => {
    await proxiedApp?.close();
  });

  test("distinct forwarded clients get distinct buckets", async () => {
    const first = randomIp();
    await signInStatuses(proxiedApp, proxy, SIGN_IN_LIMIT, { "x-forwarded-for": first });
    expect((await cheapSignIn(proxiedApp, proxy, { "x-forwarded-for": first })).status).toBe(429);
    expect((await cheapSignIn(proxiedApp, proxy, { "x-forwarded-for": randomIp() })).status).toBe(422);
  });

  test("a client cannot pick its bucket by prepending addresses to X-Forwarded-For", async () => {
    const client = randomIp();
    await signInStatuses(proxiedApp, proxy, SIGN_IN_LIMIT, { "x-forwarded-for": client });
    const spoofed = await cheapSignIn(proxiedApp, proxy, { "x-forwarded-for": `${randomIp()}, ${client}` });
    expect(spoofed.status).toBe(429);
  });

  test("X-Forwarded-For from a socket that is not the proxy is ignored", async () => {
    const direct = randomIp();
    await signInStatuses(proxiedApp, direct, SIGN_IN_LIMIT, { "x-forwarded-for": randomIp() });
    expect((await cheapSignIn(proxiedApp, direct, { "x-forwarded-for": randomIp() })).status).toBe(429);
  });
});

describe("rate limits (Redis store, REDIS_URL set)", () => {
  let redisApp: TestApp;

  beforeAll(async () => {
    redisApp = await createTestApp({ env: { REDIS_URL } });
  });

  afterAll(async () => {
    await redisApp?.close();
  });

  test("counters live in Redis: the limit holds, and nothing is written to the database table", async () => {
    const ip = randomIp();
    expect(await signInStatuses(redisApp, ip)).toEqual(Array(SIGN_IN_LIMIT).fill(422));
    const blocked = await cheapSignIn(redisApp, ip);
    expect(blocked.status).toBe(429);
    // The window is a minute: the client is told to retry within it.
    const retryAfter = Number(blocked.headers.get("x-retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await cheapSignIn(redisApp, randomIp())).status).toBe(422);

    const rows = await redisApp.services.database.db
      .selectFrom("rateLimit" as never)
      .selectAll()
      .execute();
    expect(rows).toEqual([]);
  });

  test("a second app instance on the same Redis shares the counters", async () => {
    const ip = randomIp();
    await signInStatuses(redisApp, ip);
    const other = await createTestApp({ env: { REDIS_URL }, database: redisApp.database });
    try {
      expect((await cheapSignIn(other, ip)).status).toBe(429);
    } finally {
      await other.close();
    }
  });
});

describe("healthz", () => {
  test("answers 200 while the database answers", async () => {
    const response = await createClient(app).get("/healthz");
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ status: "ok" });
  });

  test("answers 503 when the database does not", async () => {
    const broken = await createTestApp();
    await broken.services.worker.stop();
    await broken.services.database.close();
    try {
      const response = await createClient(broken).get("/healthz");
      expect(response.status).toBe(503);
      expect((await readJson<{ code: string }>(response)).code).toBe("SERVICE_UNAVAILABLE");
    } finally {
      await broken.database.drop();
    }
  });
});

describe("unverified users", () => {
  test("get no session cookie from sign-up", async () => {
    const { client } = await signUp(app);
    expect(client.jar.size).toBe(0);
  });
});

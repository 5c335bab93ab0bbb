import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { Hono } from "hono";
import { sql } from "kysely";
import { mountWebApp } from "../app";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createLogger, type Logger } from "../logger";
import { buildUser, createVerifiedUser, extractLink, readLatestMail, signUp } from "../test/factories";
import { createClient, expectError, readJson } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";
import type { AppEnv } from "./app-env";
import { MAX_BODY_NESTING } from "./middleware/hostile-input";

type LogLine = { level: string; message: string } & Record<string, unknown>;

/** A logger that keeps its lines (already through the real logger's formatting and redaction). */
function capturingLogger(level: "debug" | "info" = "info"): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const real = createLogger(level);
  const capture = (name: keyof Logger) => (message: string, fields?: Record<string, unknown>) => {
    const spy = vi
      .spyOn(process.stdout, "write")
      .mockImplementation((chunk) => (lines.push(JSON.parse(String(chunk)) as LogLine), true));
    const errorSpy = vi
      .spyOn(process.stderr, "write")
      .mockImplementation((chunk) => (lines.push(JSON.parse(String(chunk)) as LogLine), true));
    try {
      real[name](message, fields);
    } finally {
      spy.mockRestore();
      errorSpy.mockRestore();
    }
  };
  return {
    logger: { debug: capture("debug"), info: capture("info"), warn: capture("warn"), error: capture("error") },
    lines,
  };
}

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("deeply nested JSON", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  test("is refused with a 400 before any handler, on better-auth's endpoints, the app's own and the billing sandbox", async () => {
    const owner = await createVerifiedUser(app);
    const body = `{"name":"Deep","slug":"deep-org","metadata":${nested(10_000)}}`;
    for (const path of [
      "/api/auth/organization/create",
      "/api/auth/sign-up/email",
      "/api/organizations/x/members",
      "/sandbox/polar/v1/customers/",
    ]) {
      const response = await owner.client.request(path, {
        method: "POST",
        json: body,
        headers: { authorization: "Bearer sandbox" },
      });
      await expectError(response, 400, `The request body is nested more than ${MAX_BODY_NESTING} levels deep`);
    }
    expect(await app.services.database.db.selectFrom("organization").select("id").execute()).toEqual([]);
  });

  test("honest nesting still goes through", async () => {
    const owner = await createVerifiedUser(app);
    const response = await owner.client.post("/api/auth/organization/create", {
      name: "Shallow",
      slug: "shallow-org",
      metadata: JSON.parse(nested(5)),
    });
    expect(response.status).toBe(200);
  });
});

describe("ADMIN_EMAILS", () => {
  let app: TestApp;
  const adminEmail = buildUser().email;
  beforeAll(async () => {
    app = await createTestApp({ env: { ADMIN_EMAILS: adminEmail } });
  });
  afterAll(async () => {
    await app?.close();
  });

  const roleOf = async (email: string) =>
    (
      await app.services.database.db
        .selectFrom("user")
        .select("role")
        .where("email", "=", email)
        .executeTakeFirstOrThrow()
    ).role;

  test("grants the admin role only once the address is verified, not at sign-up", async () => {
    const { input, client } = await signUp(app, buildUser({ email: adminEmail }));
    expect(await roleOf(adminEmail)).toBe("user");
    const mail = await readLatestMail(app, input.email, (candidate) =>
      candidate.subject.startsWith("Verify your e-mail"),
    );
    expect((await client.get(extractLink(mail))).status).toBeLessThan(400);
    expect(await roleOf(adminEmail)).toBe("admin");
    expect((await client.get("/api/auth/admin/list-users")).status).toBe(200);
  });

  test("a user created with an unverified listed address (as from a social provider that does not vouch for it) is no admin", async () => {
    const email = `unverified.${adminEmail}`;
    const listed = await createTestApp({
      env: { ADMIN_EMAILS: `${email},verified.${adminEmail}` },
      database: app.database,
    });
    try {
      const listedContext = await listed.services.auth.$context;
      // The call a social sign-in makes for a newcomer, with what the provider said about the e-mail.
      await listedContext.internalAdapter.createOAuthUser(
        { email, name: "Unverified", emailVerified: false },
        { providerId: "github", accountId: "1001" },
      );
      await listedContext.internalAdapter.createOAuthUser(
        { email: `verified.${adminEmail}`, name: "Verified", emailVerified: true },
        { providerId: "github", accountId: "1002" },
      );
    } finally {
      await listed.close();
    }
    expect(await roleOf(email)).toBe("user");
    expect(await roleOf(`verified.${adminEmail}`)).toBe("admin");
  });
});

describe("ALLOW_ORGANIZATION_CREATION=admins", () => {
  test("counts ADMIN_USER_IDS as platform admins, like every other admin check", async () => {
    const first = await createTestApp({ env: { ALLOW_ORGANIZATION_CREATION: "admins" } });
    try {
      const configured = await createVerifiedUser(first);
      const plain = await createVerifiedUser(first);
      const second = await createTestApp({
        env: { ALLOW_ORGANIZATION_CREATION: "admins", ADMIN_USER_IDS: configured.id },
        database: first.database,
      });
      try {
        const signIn = async (input: { email: string; password: string }) => {
          const client = createClient(second);
          expect(
            (await client.post("/api/auth/sign-in/email", { email: input.email, password: input.password })).status,
          ).toBe(200);
          return client;
        };
        const admin = await signIn(configured.input);
        expect(
          (await admin.post("/api/auth/organization/create", { name: "By id", slug: "by-configured-id" })).status,
        ).toBe(200);
        await expectError(
          await (await signIn(plain.input)).post("/api/auth/organization/create", { name: "No", slug: "not-by-plain" }),
          403,
          "not allowed to create a new organization",
        );
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
    }
  });
});

describe("logs", () => {
  test("carry no e-mail address at the default level, and name an untrusted X-Forwarded-For peer once", async () => {
    const { logger, lines } = capturingLogger("info");
    const app = await createTestApp({ logger, env: { LOG_LEVEL: "info" } });
    try {
      const existing = await createVerifiedUser(app);
      // better-auth logs "Sign-up attempt for existing email: <address>" at info level.
      expect(
        (await createClient(app).post("/api/auth/sign-up/email", { ...buildUser(), email: existing.input.email }))
          .status,
      ).toBe(200);
      expect(lines.some((line) => String(line.message).includes("Sign-up attempt for existing email"))).toBe(true);
      expect(JSON.stringify(lines)).not.toContain(existing.input.email);
      expect(JSON.stringify(lines)).not.toContain("[object Object]");

      const client = createClient(app, "203.0.113.50");
      for (let index = 0; index < 3; index += 1)
        await client.get("/api/auth/get-session", { headers: { "x-forwarded-for": "198.51.100.9" } });
      const warnings = lines.filter(
        (line) =>
          line.level === "warn" &&
          line.message.startsWith("X-Forwarded-For from a peer that is not in TRUSTED_PROXIES"),
      );
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ peer: "203.0.113.50" });
    } finally {
      await app.close();
    }
  });
});

describe("the billing sandbox in production", () => {
  const TOKEN = "t".repeat(40);
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({
      env: {
        NODE_ENV: "production",
        SMTP_URL: "smtp://127.0.0.1:2525",
        DEV_MAILBOX: undefined,
        BILLING_SANDBOX: "true",
        SANDBOX_ACCESS_TOKEN: TOKEN,
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  test("answers only its own token: a wrong or near-miss token gets 401 on the API and on the reset control", async () => {
    const client = createClient(app);
    for (const token of ["anything", TOKEN.slice(0, -1), `${TOKEN}x`]) {
      expect(
        (await client.get("/sandbox/polar/v1/products/", { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(401);
      expect(
        (
          await client.request("/sandbox/polar/sandbox/reset", {
            method: "POST",
            headers: { authorization: `Bearer ${token}` },
          })
        ).status,
      ).toBe(401);
    }
    const listed = await client.get("/sandbox/polar/v1/products/", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(listed.status).toBe(200);
    expect((await readJson<{ items: unknown[] }>(listed)).items.length).toBeGreaterThan(0);
  });

  test("the dev mailbox is not served", async () => {
    expect((await createClient(app).get("/api/dev/mail")).status).toBe(404);
  });
});

describe("a database that does not answer", () => {
  test("turns requests into a clear 503, never a 500, on better-auth's endpoints and the app's own", async () => {
    const { logger, lines } = capturingLogger("info");
    const app = await createTestApp({ logger });
    try {
      const user = await createVerifiedUser(app);
      await app.services.worker.stop();
      await app.services.database.close();
      const answers = await Promise.all([
        user.client.get("/api/auth/get-session"),
        user.client.get("/api/auth/organization/list"),
        createClient(app).post("/api/auth/sign-in/email", { email: user.input.email, password: user.input.password }),
        user.client.get("/api/organizations/some-organization/members"),
        user.client.get("/api/invitations/some-invitation"),
      ]);
      for (const response of answers) {
        await expectError(response, 503, "The service is unavailable for a moment. Please try again shortly.");
      }
      expect(lines.filter((line) => line.message === "database unavailable").length).toBe(answers.length);
      expect(lines.some((line) => line.message === "unhandled error")).toBe(false);
    } finally {
      await app.database.drop();
    }
  });
});

describe("input honest clients never send", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  test("a NUL character in the path, the query or the body is a 400 on every database, and changes nothing", async () => {
    const owner = await createVerifiedUser(app);
    const message = "The request contains a NUL character, which no field accepts";
    for (const path of [
      "/api/invitations/a%00b",
      "/api/organizations/a%00b/teams",
      "/api/dev/mail?to=a%00b",
      "/api/auth/organization/list?x=%00",
    ]) {
      await expectError(await owner.client.get(path), 400, message);
    }
    await expectError(
      await owner.client.post("/api/auth/organization/set-active", { organizationId: "a\u0000b" }),
      400,
      message,
    );
    await expectError(await owner.client.post("/api/auth/update-user", { name: "Nul\u0000Name" }), 400, message);
    await expectError(
      await owner.client.request("/api/auth/update-user", {
        method: "POST",
        body: new Uint8Array([0x7b, 0x00, 0x7d]),
        contentType: "application/json",
      }),
      400,
      message,
    );
    const user = await app.services.database.db
      .selectFrom("user")
      .select("name")
      .where("id", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(user.name).toBe(owner.input.name);
  });

  test("a sort or filter field that is no column is a 400 naming the columns, not a 500", async () => {
    const owner = await createVerifiedUser(app);
    const created = await owner.client.post("/api/auth/organization/create", { name: "Sorted", slug: "sorted-org" });
    expect(created.status).toBe(200);
    await expectError(
      await owner.client.get("/api/auth/organization/list-members?sortBy=x"),
      400,
      "sortBy: Use one of: id, organizationId, userId, role, createdAt",
    );
    await expectError(
      await owner.client.get("/api/auth/organization/list-members?filterField=password&filterValue=y"),
      400,
      "filterField: Use one of: id, organizationId, userId, role, createdAt",
    );
    expect(
      (await owner.client.get("/api/auth/organization/list-members?sortBy=createdAt&sortDirection=desc")).status,
    ).toBe(200);
  });
});

describe("a server error better-auth answers itself", () => {
  test("is logged through the app's logger, with its path and code", async () => {
    const { logger, lines } = capturingLogger("info");
    const app = await createTestApp({ logger });
    try {
      const user = await createVerifiedUser(app);
      // The database answers, but the session table is gone: better-auth answers 500 "Failed to get session".
      await sql`ALTER TABLE "session" RENAME TO "session_gone"`.execute(app.services.database.db);
      const response = await user.client.get("/api/auth/get-session");
      expect(response.status).toBe(500);
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: "error",
          message: "auth answered a server error",
          path: "/api/auth/get-session",
          status: 500,
          code: "FAILED_TO_GET_SESSION",
        }),
      );
      expect(lines.some((line) => line.message === "database unavailable")).toBe(false);
    } finally {
      await app.close();
    }
  });
});

describe("the built web app", () => {
  let dist: string;
  const files = {
    "index.html": "<!doctype html><title>Atrium</title>",
    "assets/app.js": "console.log('app');".repeat(20),
    "assets/app.js.map": '{"version":3,"sources":["web/main.tsx"]}',
  };
  beforeAll(() => {
    // A tiny fake of dist/web as the build writes it: each text file with its .br and .gz.
    dist = mkdtempSync(path.join(tmpdir(), "atrium-dist-"));
    mkdirSync(path.join(dist, "assets"));
    for (const [name, content] of Object.entries(files)) {
      writeFileSync(path.join(dist, name), content);
      if (name.endsWith(".map")) continue;
      writeFileSync(path.join(dist, `${name}.br`), brotliCompressSync(content));
      writeFileSync(path.join(dist, `${name}.gz`), gzipSync(content));
    }
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  function webApp(isProduction: boolean) {
    const app = new Hono<AppEnv>();
    mountWebApp(app, dist, { isProduction });
    return app;
  }

  test("answers a source map with 404 in production (it is served in development)", async () => {
    const production = await webApp(true).request("/assets/app.js.map");
    expect(production.status).toBe(404);
    expect(await production.json()).toEqual({ code: "NOT_FOUND", message: "Not found" });
    expect((await webApp(false).request("/assets/app.js.map")).status).toBe(200);
  });

  test("sends the precompressed file the client accepts, brotli first, with Content-Encoding and Vary", async () => {
    const app = webApp(true);
    const brotli = await app.request("/assets/app.js", { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(brotli.status).toBe(200);
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(brotli.headers.get("vary")).toBe("Accept-Encoding");
    expect(brotli.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(brotliDecompressSync(Buffer.from(await brotli.arrayBuffer())).toString()).toBe(files["assets/app.js"]);

    const gzip = await app.request("/assets/app.js", { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(files["assets/app.js"]);

    const plain = await app.request("/assets/app.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(files["assets/app.js"]);
  });

  test("compresses the index.html fallback of client routes too, and honours q=0", async () => {
    const app = webApp(true);
    const brotli = await app.request("/sign-in", { headers: { "accept-encoding": "gzip, br" } });
    expect(brotli.status).toBe(200);
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(brotli.headers.get("vary")).toBe("Accept-Encoding");
    expect(brotli.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(brotliDecompressSync(Buffer.from(await brotli.arrayBuffer())).toString()).toBe(files["index.html"]);

    const gzip = await app.request("/organizations/new", { headers: { "accept-encoding": "br;q=0, gzip" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(files["index.html"]);

    const plain = await app.request("/sign-in", { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(files["index.html"]);
  });

  test("does not hand out a compressed file by its own name", async () => {
    expect((await webApp(true).request("/assets/app.js.br")).status).toBe(404);
    expect((await webApp(true).request("/assets/app.js.gz")).status).toBe(404);
  });
});

describe("API compression", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  test("gzips a JSON answer of 1 KB or more when the client accepts gzip, and leaves small ones alone", async () => {
    // Straight to the app: the test client reads bodies as text.
    const request = (pathname: string) =>
      app.app.request(
        pathname,
        { headers: { "accept-encoding": "gzip" } },
        { incoming: { socket: { remoteAddress: "127.0.0.1" } } },
      );
    const large = await request("/api/nothing-here/" + "x".repeat(1200));
    expect(large.status).toBe(404);
    expect(large.headers.get("content-encoding")).toBe("gzip");
    const body = JSON.parse(gunzipSync(Buffer.from(await large.arrayBuffer())).toString()) as { code: string };
    expect(body.code).toBe("NOT_FOUND");

    const small = await request("/api/nothing-here");
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(await small.json()).toEqual({
      code: "NOT_FOUND",
      message: "No endpoint GET /api/nothing-here",
      requestId: expect.any(String),
    });
  });
});

import { APIError } from "better-auth/api";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect } from "node:net";
import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { DomainError } from "../../common/domain-error";
import { recordingLogger, type LogRecord } from "../test/recording-logger";
import { createAppErrorHandler } from "../app-errors";
import { noteDatabaseFailure, runInRequestScope } from "../request-scope";
import { createDatabaseProbe } from "./errors";

/** A Hono app whose one route throws `error`, answered by the app's error handler with a capturing logger. */
async function answer(
  error: Error,
  path = "/api/thing",
): Promise<{ status: number; body: unknown; lines: LogRecord[] }> {
  const lines: LogRecord[] = [];
  const app = new Hono();
  app.onError(createAppErrorHandler(recordingLogger(lines)));
  app.post("*", () => {
    throw error;
  });
  const response = await app.request(path, { method: "POST", body: JSON.stringify({ password: "hunter2" }) });
  return { status: response.status, body: await response.json(), lines };
}

const postgresUniqueViolation = (constraint: string) =>
  Object.assign(new Error(`duplicate key value violates unique constraint "${constraint}"`), {
    code: "23505",
    constraint,
  });
const sqliteUniqueViolation = (columns: string) =>
  Object.assign(new Error(`UNIQUE constraint failed: ${columns}`), { code: "SQLITE_CONSTRAINT_UNIQUE" });

describe("a DomainError thrown from an app route or let through by better-auth", () => {
  test("answers its code's status from the catalogue, its message and its details, without logging", async () => {
    const message = "Transfer ownership or delete these organizations first";
    const error = new DomainError("SOLE_OWNER", message, [{ id: "o1" }]);
    expect(await answer(error)).toEqual({
      status: 400,
      body: { code: "SOLE_OWNER", message, details: [{ id: "o1" }] },
      lines: [],
    });
  });

  test("answers the spec's status and message where the spec catalogues its code", async () => {
    const error = new DomainError("ORGANIZATION_SLUG_ALREADY_TAKEN", "Organization slug already taken");
    const body = { code: "ORGANIZATION_SLUG_ALREADY_TAKEN", message: "slug is taken" };
    expect(await answer(error)).toMatchObject({ status: 400, body });
  });
});

describe("an APIError thrown from an app route", () => {
  test("answers the spec's status and message where the spec catalogues its code", async () => {
    const error = APIError.from("BAD_REQUEST", {
      code: "USERNAME_IS_ALREADY_TAKEN",
      message: "Username is already taken. Please try another.",
    });
    expect(await answer(error)).toMatchObject({
      status: 422,
      body: { code: "USERNAME_IS_ALREADY_TAKEN", message: "username is already taken. please try another." },
    });
  });

  test("answers its own status, code and message otherwise, without logging", async () => {
    const error = new APIError("BAD_REQUEST", { message: "metadata must be an object", code: "INVALID_METADATA" });
    expect(await answer(error)).toEqual({
      status: 400,
      body: { code: "INVALID_METADATA", message: "metadata must be an object" },
      lines: [],
    });
  });

  test("a server-side one is logged with its cause", async () => {
    const cause = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    const error = APIError.from(
      "INTERNAL_SERVER_ERROR",
      { code: "FAILED_TO_GET_SESSION", message: "Failed to get session" },
      { cause },
    );
    const { status, body, lines } = await answer(error);
    expect({ status, body }).toEqual({
      status: 500,
      body: { code: "FAILED_TO_GET_SESSION", message: "Failed to get session" },
    });
    expect(lines).toMatchObject([
      {
        level: "error",
        fields: {
          error: { name: "APIError", cause: { message: "connect ECONNREFUSED 127.0.0.1:5432", code: "ECONNREFUSED" } },
        },
      },
    ]);
  });
});

describe("a unique violation", () => {
  test.each([
    ["PostgreSQL", postgresUniqueViolation("organization_slug_key")],
    ["SQLite", sqliteUniqueViolation("organization.slug")],
  ])("on %s answers what the sequential duplicate of that endpoint answers", async (_database, error) => {
    expect(await answer(error, "/api/auth/organization/create")).toMatchObject({
      status: 400,
      body: { code: "ORGANIZATION_ALREADY_EXISTS", message: "organization already exists" },
    });
    expect(await answer(error, "/api/auth/organization/update")).toMatchObject({
      status: 400,
      body: { code: "ORGANIZATION_SLUG_ALREADY_TAKEN", message: "slug is taken" },
    });
  });

  test("on a composite SQLite index is found by its column list", async () => {
    expect(await answer(sqliteUniqueViolation("invitation.organizationId, invitation.email"))).toMatchObject({
      status: 400,
      body: {
        code: "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
        message: "User is already invited to this organization",
      },
    });
  });

  test("of an index the table does not name is a 409 CONFLICT and a warning, never a 500", async () => {
    const { status, body, lines } = await answer(postgresUniqueViolation("session_token_key"));
    expect({ status, body }).toEqual({
      status: 409,
      body: {
        code: "CONFLICT",
        message: "Another request changed the same data at the same moment. Please try again.",
      },
    });
    expect(lines).toEqual([
      {
        level: "warn",
        message: "unique violation without a mapped answer",
        fields: { method: "POST", path: "/api/thing", index: "session_token_key" },
      },
    ]);
  });
});

describe("an unknown error", () => {
  test("answers the generic 500 and is logged as an object, without the request body", async () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'id')", {
      cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }),
    });
    const { status, body, lines } = await answer(error);
    expect({ status, body }).toEqual({
      status: 500,
      body: { code: "INTERNAL_ERROR", message: "Something went wrong on our side. Please try again." },
    });
    expect(lines).toMatchObject([
      {
        level: "error",
        message: "unhandled error",
        fields: {
          method: "POST",
          path: "/api/thing",
          error: {
            name: "TypeError",
            message: "Cannot read properties of undefined (reading 'id')",
            cause: { message: "socket hang up", code: "ECONNRESET" },
          },
        },
      },
    ]);
    expect((lines[0]!.fields!.error as { stack: string }).stack).toContain("TypeError: Cannot read properties");
    expect(JSON.stringify(lines)).not.toContain("hunter2");
    expect(JSON.stringify(lines)).not.toContain("[object Object]");
  });
});

describe("an error thrown after the answer was built (a middleware failing after next())", () => {
  test("answers its own body's length and encoding, keeping the replaced answer's other headers", async () => {
    const app = new Hono();
    app.onError(createAppErrorHandler(recordingLogger([]), { isDatabaseDown: async () => true }));
    app.use("*", async (c, next) => {
      await next();
      throw new Error("Connection terminated unexpectedly");
    });
    const replaced = { "Content-Length": "712", "Content-Encoding": "gzip", ETag: '"v1"', "X-Frame-Options": "DENY" };
    app.get("*", (c) => c.body(new Uint8Array(712), 200, { ...replaced, "Content-Type": "application/json" }));
    const response = await app.request("/api/auth/get-session");
    const body = await response.text();
    expect(response.status).toBe(503);
    // The replaced body's length on this shorter body left an HTTP client waiting until the connection was cut.
    expect(response.headers.get("Content-Length")).toBeNull();
    expect([response.headers.get("Content-Encoding"), response.headers.get("ETag")]).toEqual([null, null]);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    expect(JSON.parse(body)).toEqual({
      code: "SERVICE_UNAVAILABLE",
      message: "The service is unavailable for a moment. Please try again shortly.",
    });
  });
});

describe("a lost database connection", () => {
  const lost = new Error("Connection terminated");
  test.each([
    ["node-postgres's own words", new Error("Client has encountered a connection error and is not queryable")],
    ["PostgreSQL's shutdown code", Object.assign(new Error("terminating connection"), { code: "57P01" })],
    ["a cause", APIError.from("INTERNAL_SERVER_ERROR", { code: "X", message: "" }, { cause: lost })],
    ["SQLite's file written by another process", Object.assign(new Error("busy"), { code: "SQLITE_BUSY_SNAPSHOT" })],
    ["SQLite's file locked past the wait", Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" })],
  ])("is the 503 even when the database answers again by the time it is examined (%s)", async (_name, error) => {
    const app = new Hono();
    app.onError(createAppErrorHandler(recordingLogger([]), { isDatabaseDown: async () => false }));
    app.post("*", () => {
      throw error;
    });
    const response = await app.request("/api/auth/sign-up/email", { method: "POST" });
    expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([503, "SERVICE_UNAVAILABLE"]);
  });
});

describe("the database probe", () => {
  /** Runs `check` as a request that saw the database fail (or not). */
  const inRequest = <T>(sawFailure: boolean, check: () => Promise<T>) =>
    runInRequestScope({ requestId: "r", route: "/" }, async () => {
      if (sawFailure) noteDatabaseFailure();
      return await check();
    });

  test("reports the database down while a ping fails, and puts failures down to it for 2 s after the last failed ping", async () => {
    let clock = 0;
    let answers = false;
    const probe = createDatabaseProbe(
      async () => {
        if (!answers) throw new Error("connect ECONNREFUSED");
      },
      () => clock,
    );
    const explains = () => probe.explainsFailure();
    expect([await probe.isDown(), await explains()]).toEqual([true, true]);
    answers = true;
    clock = 1_999;
    // Back: /healthz says so at once, but a request whose statement failed just before still gets the outage's 503.
    expect([await probe.isDown(), await explains()]).toEqual([false, true]);
    clock = 2_000;
    expect([await probe.isDown(), await explains()]).toEqual([false, false]);
  });

  test("does not put down to the database a refusal the request did not see there, and does not ping for it", async () => {
    let pings = 0;
    const probe = createDatabaseProbe(async () => {
      pings += 1;
      throw new Error("connect ECONNREFUSED");
    });
    expect(await inRequest(false, () => probe.explainsRefusal())).toBe(false);
    expect(await probe.explainsRefusal()).toBe(false);
    expect(pings).toBe(0);
    expect(await inRequest(true, () => probe.explainsRefusal())).toBe(true);
    expect(pings).toBe(1);
  });

  test("calls a ping that does not answer within a second down", async () => {
    const probe = createDatabaseProbe(() => new Promise(() => undefined));
    const startedAt = Date.now();
    expect(await probe.isDown()).toBe(true);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(990);
  });

  test("a ping answered in time is not late because the process was too busy to read it", async () => {
    // The database stands in as another process, which answers while this one is busy.
    const echo = spawn(process.execPath, [
      "-e",
      `require("net")
        .createServer((socket) => socket.on("data", (data) => socket.end(data)))
        .listen(0, "127.0.0.1", function () { console.log(this.address().port) })`,
    ]);
    try {
      const [port] = (await once(echo.stdout, "data")) as [Buffer];
      const probe = createDatabaseProbe(async () => {
        const socket = connect(Number(port.toString()), "127.0.0.1");
        const answered = once(socket, "data");
        await once(socket, "connect");
        socket.write("select 1");
        // The answer is at the socket within milliseconds; this process reads nothing for longer than the probe waits.
        const busyUntil = Date.now() + 1_200;
        while (Date.now() < busyUntil);
        await answered;
      });
      expect(await probe.isDown()).toBe(false);
    } finally {
      echo.kill();
    }
  });
});

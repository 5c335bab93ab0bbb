import { spawn, type ChildProcess } from "node:child_process";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../test/factories";
import { cheapSignIn, SIGN_IN_LIMIT, signInStatuses } from "../test/rate-limit";
import { recordingLogger, type LogRecord } from "../test/recording-logger";
import { createClient, randomIp } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";
import { createDatabaseRateLimitStore, createRateLimitStoreHealth } from "../http/rate-limit-store";
import { freePort } from "../test/free-port";

/** Time a request may take while the store is down: the limiter must give up quickly, never hang it. */
const MAX_REQUEST_MS = 2_000;

const storeWarnings = (entries: LogRecord[]) =>
  entries.filter((entry) => entry.level === "warn" && entry.message.startsWith("rate limiter:"));
const storeRecoveries = (entries: LogRecord[]) =>
  entries.filter((entry) => entry.level === "info" && entry.message.startsWith("rate limiter:"));

/** Limiting works: a fresh address gets its 10 attempts, then 429. */
async function expectLimiting(target: TestApp): Promise<void> {
  expect(await signInStatuses(target, randomIp(), SIGN_IN_LIMIT + 1)).toEqual([
    ...Array<number>(SIGN_IN_LIMIT).fill(422),
    429,
  ]);
}

type Timed = { what: string; status: number; ms: number };

async function timed(what: string, call: () => Promise<Response>): Promise<Timed> {
  const started = performance.now();
  const response = await call();
  await response.arrayBuffer();
  return { what, status: response.status, ms: performance.now() - started };
}

/**
 * One run of concurrent auth requests: sign-ins from the blocked address and from fresh ones, session reads.
 * `onAnswer` sees the number answered so far, to act while the rest are in flight.
 */
function mixedRequests(
  target: TestApp,
  blockedIp: string,
  count: number,
  onAnswer?: (answered: number) => void,
): Promise<Timed[]> {
  let answered = 0;
  const calls: Array<Promise<Timed>> = [];
  for (let index = 0; index < count; index += 1) {
    const call =
      index % 3 === 0
        ? timed("get-session", () => createClient(target).get("/api/auth/get-session"))
        : index % 3 === 1
          ? timed("blocked sign-in", () => cheapSignIn(target, blockedIp))
          : timed("fresh sign-in", () => cheapSignIn(target, randomIp()));
    calls.push(
      call.then((result) => {
        answered += 1;
        onAnswer?.(answered);
        return result;
      }),
    );
  }
  return Promise.all(calls);
}

function expectAnsweredQuickly(results: Timed[]): void {
  for (const result of results) {
    expect(result.status, result.what).toBeLessThan(500);
    expect(result.ms, result.what).toBeLessThan(MAX_REQUEST_MS);
    if (result.what === "get-session") expect(result.status).toBe(200);
    else if (result.what === "fresh sign-in") expect(result.status).toBe(422);
    else expect([422, 429]).toContain(result.status);
  }
}

/** A private, throwaway redis-server: nothing saved, so a restart starts empty. */
class RedisServer {
  private process?: ChildProcess;

  constructor(readonly port: number) {}

  async start(): Promise<void> {
    const child = spawn(
      "redis-server",
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    this.process = child;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  }

  get isRunning(): boolean {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Freezes it: connections stay open and commands get no answer, as from an overloaded or unreachable server. */
  pause(): void {
    this.process?.kill("SIGSTOP");
  }

  resume(): void {
    this.process?.kill("SIGCONT");
  }

  /** Kills it the hard way (an outage, not a shutdown); resolves when it is gone. */
  kill(): Promise<void> {
    const child = this.process;
    if (!child || !this.isRunning) return Promise.resolve();
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGKILL");
    return exited;
  }
}

describe("the Redis store fails open", () => {
  const logs: LogRecord[] = [];
  let redisServer: RedisServer;
  let target: TestApp;

  beforeAll(async () => {
    redisServer = new RedisServer(await freePort());
    await redisServer.start();
    target = await createTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${redisServer.port}` },
      logger: recordingLogger(logs),
    });
  });

  afterAll(async () => {
    await redisServer?.kill();
    await target?.close();
  });

  test("a Redis outage mid-run lets requests through quickly with one warning; limiting resumes when Redis is back", async () => {
    const blockedIp = randomIp();
    expect(await signInStatuses(target, blockedIp, SIGN_IN_LIMIT + 1)).toEqual([
      ...Array<number>(SIGN_IN_LIMIT).fill(422),
      429,
    ]);
    const healthy = await mixedRequests(target, blockedIp, 12);
    expect(healthy.filter((result) => result.what === "blocked sign-in").map((result) => result.status)).toEqual([
      429, 429, 429, 429,
    ]);

    let killed: Promise<void> = Promise.resolve();
    const duringKill = await mixedRequests(target, blockedIp, 60, (answered) => {
      if (answered === 10) killed = redisServer.kill();
    });
    await killed;
    const whileDown = await mixedRequests(target, blockedIp, 60);

    expectAnsweredQuickly([...duringKill, ...whileDown]);
    // Failing open: the blocked address gets through while nothing can count it.
    expect(
      whileDown.filter((result) => result.what === "blocked sign-in").every((result) => result.status === 422),
    ).toBe(true);
    // One warning for the whole outage, however many requests and reconnection attempts failed.
    expect(storeWarnings(logs)).toHaveLength(1);
    expect(storeWarnings(logs)[0]?.fields).toMatchObject({ store: "redis" });
    expect(JSON.stringify(logs)).not.toContain(blockedIp);
    expect(logs.filter((entry) => entry.level === "error")).toEqual([]);

    await redisServer.start();
    await waitFor(() => storeRecoveries(logs).length === 1, { what: "the recovery line", timeoutMs: 10_000 });
    await expectLimiting(target);
    expect(storeWarnings(logs)).toHaveLength(1);
  });

  test("a Redis that stops answering holds a request up no longer than the command timeout", async () => {
    const blockedIp = randomIp();
    await signInStatuses(target, blockedIp, SIGN_IN_LIMIT);
    const warningsBefore = storeWarnings(logs).length;
    const recoveriesBefore = storeRecoveries(logs).length;

    redisServer.pause();
    try {
      const whilePaused = await mixedRequests(target, blockedIp, 30);
      expectAnsweredQuickly(whilePaused);
      expect(
        whilePaused.filter((result) => result.what === "blocked sign-in").every((result) => result.status === 422),
      ).toBe(true);
      expect(storeWarnings(logs)).toHaveLength(warningsBefore + 1);
    } finally {
      redisServer.resume();
    }

    await expectLimiting(target);
    expect(storeRecoveries(logs)).toHaveLength(recoveriesBefore + 1);
  });
});

describe("the database store fails open", () => {
  const logs: LogRecord[] = [];
  let target: TestApp;

  beforeAll(async () => {
    target = await createTestApp({ logger: recordingLogger(logs) });
  });

  afterAll(async () => {
    await target?.close();
  });

  test("a missing rate-limit table lets requests through with one warning; limiting resumes when it is back", async () => {
    const db = target.services.database.db;
    const blockedIp = randomIp();
    expect(await signInStatuses(target, blockedIp, SIGN_IN_LIMIT + 1)).toEqual([
      ...Array<number>(SIGN_IN_LIMIT).fill(422),
      429,
    ]);

    await sql`alter table "rateLimit" rename to "rateLimit_offline"`.execute(db);
    try {
      const whileBroken = await mixedRequests(target, blockedIp, 30);
      expectAnsweredQuickly(whileBroken);
      expect(
        whileBroken.filter((result) => result.what === "blocked sign-in").every((result) => result.status === 422),
      ).toBe(true);
      expect(storeWarnings(logs)).toHaveLength(1);
      expect(storeWarnings(logs)[0]?.fields).toMatchObject({ store: "database" });
      expect(JSON.stringify(logs)).not.toContain(blockedIp);
      expect(logs.filter((entry) => entry.level === "error")).toEqual([]);
    } finally {
      await sql`alter table "rateLimit_offline" rename to "rateLimit"`.execute(db);
    }

    await expectLimiting(target);
    expect(storeRecoveries(logs)).toHaveLength(1);
    // The counters kept in the table were not lost with the outage.
    expect((await cheapSignIn(target, blockedIp)).status).toBe(429);
  });
});

describe("the database store", () => {
  let target: TestApp;

  beforeAll(async () => {
    target = await createTestApp();
  });

  afterAll(async () => {
    await target?.close();
  });

  const newStore = () =>
    createDatabaseRateLimitStore(target.services.database.db, {
      longestWindowSeconds: 300,
      logger: recordingLogger([]),
    });

  /** Moves a counter's last allowed request into the past, as if that much time had gone by. */
  async function backdate(key: string, ms: number): Promise<void> {
    await sql`update "rateLimit" set "lastRequest" = "lastRequest" - ${ms} where "key" = ${key}`.execute(
      target.services.database.db,
    );
  }

  async function countOf(key: string): Promise<number | undefined> {
    const { rows } = await sql<{ count: number }>`select "count" from "rateLimit" where "key" = ${key}`.execute(
      target.services.database.db,
    );
    return rows[0]?.count;
  }

  test("a limited sign-in answers 429 with the wait in a standard Retry-After header (seconds) and the TOO_MANY_REQUESTS code", async () => {
    const ip = randomIp();
    expect(await signInStatuses(target, ip)).toEqual(Array<number>(SIGN_IN_LIMIT).fill(422));
    const limited = await cheapSignIn(target, ip);
    expect(limited.status).toBe(429);
    const retryAfter = limited.headers.get("Retry-After");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThan(55);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(limited.headers.get("X-Retry-After")).toBe(retryAfter);
    expect(limited.headers.get("content-type")).toContain("application/json");
    expect(limited.data).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: "Too many requests. Please try again later.",
      requestId: expect.any(String),
    });
  });

  test("max requests pass, the next is refused with the time left, and the window restarts once it passes without an allowed request", async () => {
    const store = newStore();
    const key = `${randomIp()}|/test`;
    const rule = { window: 60, max: 3 };
    const decisions = [];
    for (let attempt = 0; attempt < 4; attempt += 1) decisions.push(await store.consume(key, rule));
    expect(decisions.slice(0, 3)).toEqual(Array(3).fill({ allowed: true, retryAfter: null }));
    expect(decisions[3]?.allowed).toBe(false);
    expect(decisions[3]?.retryAfter).toBeGreaterThan(55);
    expect(decisions[3]?.retryAfter).toBeLessThanOrEqual(60);

    // A refused request does not move the window: 50 s later the time left has shrunk by as much.
    await backdate(key, 50_000);
    const refused = await store.consume(key, rule);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBeLessThanOrEqual(10);

    await backdate(key, 10_000);
    expect(await store.consume(key, rule)).toEqual({ allowed: true, retryAfter: null });
    expect(await countOf(key)).toBe(1);
  });

  test("concurrent requests from one address: exactly max pass", async () => {
    const store = newStore();
    const key = `${randomIp()}|/test`;
    const decisions = await Promise.all(Array.from({ length: 25 }, () => store.consume(key, { window: 60, max: 10 })));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
    expect(await countOf(key)).toBe(11);
  });

  test("counters idle for longer than the longest window are deleted", async () => {
    const idle = `${randomIp()}|/test`;
    const recent = `${randomIp()}|/test`;
    const warmUp = newStore();
    await warmUp.consume(idle, { window: 60, max: 10 });
    await warmUp.consume(recent, { window: 60, max: 10 });
    await backdate(idle, 301_000);
    await backdate(recent, 299_000);

    await newStore().consume(`${randomIp()}|/test`, { window: 60, max: 10 });
    expect(await countOf(idle)).toBeUndefined();
    expect(await countOf(recent)).toBe(1);
  });
});

describe("the store's health log", () => {
  test("one warning when the store starts failing, at most one a minute while it keeps failing, one info line when it recovers", () => {
    const logs: LogRecord[] = [];
    let now = 1_000_000;
    const health = createRateLimitStoreHealth(recordingLogger(logs), { store: "redis", now: () => now });
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), { code: "ECONNREFUSED" });

    for (let attempt = 0; attempt < 100; attempt += 1) health.failed(refused, "request");
    health.failed(refused, "connection");
    now += 59_000;
    health.failed(refused, "request");
    expect(logs.map((entry) => entry.level)).toEqual(["warn"]);
    expect(logs[0]?.fields).toEqual({
      store: "redis",
      error: { name: "Error", code: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:6379" },
    });

    now += 1_000;
    health.failed(refused, "connection");
    expect(logs.map((entry) => entry.level)).toEqual(["warn", "warn"]);
    expect(logs[1]?.fields).toMatchObject({ store: "redis", failingForSeconds: 60, requestsLetThrough: 101 });

    now += 5_000;
    health.recovered();
    health.recovered();
    expect(logs.map((entry) => entry.level)).toEqual(["warn", "warn", "info"]);
    expect(logs[2]?.fields).toEqual({ store: "redis", failedForSeconds: 65, requestsLetThrough: 101 });

    health.failed(refused, "request");
    expect(logs.map((entry) => entry.level)).toEqual(["warn", "warn", "info", "warn"]);
  });

  test("a call that began before the failure started does not announce a recovery", () => {
    const logs: LogRecord[] = [];
    const health = createRateLimitStoreHealth(recordingLogger(logs), { store: "database" });
    const before = health.outage;
    health.failed(new Error("no such table: rateLimit"), "request");
    health.recovered(before);
    expect(logs.map((entry) => entry.level)).toEqual(["warn"]);
    health.recovered(health.outage);
    expect(logs.map((entry) => entry.level)).toEqual(["warn", "info"]);
  });
});

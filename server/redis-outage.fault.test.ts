import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildUser, waitFor, type UserInput } from "./test/factories";
import { httpTarget } from "./test/http-target";
import { startPrivateRedis, type PrivateRedis } from "./test/private-redis";
import { SIGN_IN_LIMIT, cheapSignIn, signInStatuses } from "./test/rate-limit";
import { createClient, randomIp, type RequestTarget, type TestClient } from "./test/request";
import { startServerProcess, type ServerProcess } from "./test/server-process";
import { createTestDatabase, type TestDatabase } from "./test/test-database";

/** The longest a request may take with Redis gone: the limiter's command fails fast (ioredis has no offline queue). */
const REQUEST_BOUND_MS = 3_000;
/** How long after Redis is back the limiter may take to count again (ioredis retries every 2 s at most). */
const RECOVERY_BOUND_MS = 10_000;
const OUTAGE_WARNING = "rate limiter: the store is failing; requests pass unlimited until it answers again";
const STILL_FAILING = "rate limiter: the store is still failing; requests pass unlimited";
const RECOVERY_INFO = "rate limiter: the store answers again; requests are limited";

describe("Redis gone and back", () => {
  let database: TestDatabase;
  let redis: PrivateRedis;
  let server: ServerProcess;
  let target: RequestTarget;

  beforeAll(async () => {
    database = await createTestDatabase();
    redis = await startPrivateRedis();
    server = await startServerProcess({
      name: "atrium",
      env: { DATABASE_URL: database.url, DATA_DIR: database.dataDir, REDIS_URL: redis.url, LOG_LEVEL: "info" },
    });
    target = httpTarget(server);
  });

  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
    await database?.drop();
  });

  /** The lines of the server's output whose message is `message`. */
  const logLines = (message: string) => server.output.filter((line) => line.includes(`"message":"${message}"`));

  /** Runs `send`, asserting that it answered within the bound. */
  async function timed<T>(send: () => Promise<T>): Promise<T> {
    const startedAt = Date.now();
    const result = await send();
    expect(Date.now() - startedAt).toBeLessThan(REQUEST_BOUND_MS);
    return result;
  }

  async function verifiedUser(): Promise<UserInput> {
    const user = buildUser();
    const response = await createClient(target).post("/api/auth/sign-up/email", user);
    expect(response.status, JSON.stringify(response.data)).toBe(200);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // As following the verification link would.
    await client.query(`UPDATE "user" SET "emailVerified" = true WHERE email = $1`, [user.email]);
    await client.end();
    return user;
  }

  async function signIn(user: UserInput): Promise<TestClient> {
    const client = createClient(target);
    const response = await timed(() =>
      client.post("/api/auth/sign-in/email", { email: user.email, password: user.password }),
    );
    expect(response.status, JSON.stringify(response.data)).toBe(200);
    return client;
  }

  test("sign-in and sessions keep working, the limiter fails open and logs the outage once, and counts again once Redis is back", async () => {
    const user = await verifiedUser();
    const signedIn = await signIn(user);
    // Limited while Redis answers: the address's next attempt past the limit is refused.
    expect(await signInStatuses(target, randomIp(), SIGN_IN_LIMIT + 1)).toEqual([
      ...Array<number>(SIGN_IN_LIMIT).fill(422),
      429,
    ]);
    expect(logLines(OUTAGE_WARNING)).toEqual([]);

    await redis.stop();

    // Sessions are read and written in the database: an existing one reads, a new sign-in works, each fast.
    const session = await timed(() => signedIn.get("/api/auth/get-session"));
    expect(session.status).toBe(200);
    expect(session.data.user.email).toBe(user.email);
    const secondDevice = await signIn(user);
    expect((await timed(() => secondDevice.get("/api/auth/get-session"))).data.user.email).toBe(user.email);
    // Fails open: far more attempts than the limit from one address, none refused, each fast.
    const address = randomIp();
    for (let attempt = 0; attempt < SIGN_IN_LIMIT * 3; attempt += 1)
      expect((await timed(() => cheapSignIn(target, address))).status).toBe(422);
    // Redis stays gone a few seconds more (ioredis tries to reconnect several times a second at first) while
    // requests keep coming: the outage is logged once, not per request or per reconnection attempt.
    const outageEnds = Date.now() + 3_000;
    while (Date.now() < outageEnds) expect((await timed(() => cheapSignIn(target, randomIp()))).status).toBe(422);
    expect(logLines(OUTAGE_WARNING)).toHaveLength(1);
    expect(logLines(STILL_FAILING)).toEqual([]);
    expect(logLines(RECOVERY_INFO)).toEqual([]);
    // Nor does the Redis client write each failed reconnection attempt to stderr by itself.
    expect(server.output.filter((line) => line.includes("Unhandled error event"))).toEqual([]);

    await redis.start();
    const backAt = Date.now();

    // Within the bound, an address's attempts past the limit are refused again (a fresh address each round, so
    // a round that started before the limiter reconnected does not count).
    await waitFor(
      async () => {
        const statuses = await signInStatuses(target, randomIp(), SIGN_IN_LIMIT + 1);
        return statuses.at(-1) === 429 && statuses;
      },
      { timeoutMs: RECOVERY_BOUND_MS, what: "the rate limiter to count again" },
    );
    expect(Date.now() - backAt).toBeLessThan(RECOVERY_BOUND_MS);
    expect(await signInStatuses(target, randomIp(), SIGN_IN_LIMIT + 1)).toEqual([
      ...Array<number>(SIGN_IN_LIMIT).fill(422),
      429,
    ]);
    expect(logLines(RECOVERY_INFO)).toHaveLength(1);
    expect(logLines(OUTAGE_WARNING)).toHaveLength(1);
    expect((await signedIn.get("/api/auth/get-session")).data.user.email).toBe(user.email);
    expect(server.hasExited()).toBe(false);
  });
});

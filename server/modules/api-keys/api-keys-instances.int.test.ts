import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedApiKey } from "../../../common/api-key.schemas";
import { createOrganizationWithOwner, createVerifiedUser, waitFor, type TestUser } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from "../../test/test-database";

/** The bound: a key revoked on one instance is refused by every other within this. */
const WITHIN_MS = 1_000;
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * Two instances of the app (each with its own read cache, polling the change feed as in production) on one database,
 * as two machines behind a load balancer: a key is verified from memory on the hot path, and a revocation made on A
 * is refused by B within a second.
 */
describe("API keys across instances", () => {
  let database: TestDatabase;
  let A: TestApp;
  let B: TestApp;
  let owner: TestUser;
  let organization: { id: string };
  /** The SQL B issued, to tell a key verified from memory from one read from the database. */
  const statementsOfB: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    A = await createTestApp({ database });
    B = await createTestApp({ database, onQuery: (sql) => statementsOfB.push(sql) });
    owner = await createVerifiedUser(A, { label: "owner" });
    organization = await createOrganizationWithOwner(owner, "Acme");
  });
  afterAll(async () => {
    await A?.close();
    await B?.close();
    await database?.drop();
  });

  it("verifies a known key without reading it from the database, and refuses it on B within 1 s of its revocation on A", async () => {
    const created = (
      await owner.client.post(`/api/organizations/${organization.id}/api-keys`, {
        name: "deploys",
        scopes: ["members:read"],
      })
    ).data as CreatedApiKey;
    const script = createClient(B);
    const members = `/api/organizations/${organization.id}/members`;
    const asKey = { headers: { authorization: `Bearer ${created.key}` } };
    const keyReads = () => statementsOfB.filter((sql) => sql.startsWith("select") && sql.includes('from "api_key"'));
    statementsOfB.length = 0;
    expect((await script.get(members, asKey)).status).toBe(200);
    expect(keyReads()).toHaveLength(1);

    // A warm key: once B's cache holds it (a load that raced a change on the feed is not kept, so this may take a
    // few tries on a busy machine), the key's row is not read again while the cache is current.
    await waitFor(
      async () => {
        await B.services.readCache.pollNow();
        statementsOfB.length = 0;
        expect((await script.get(members, asKey)).status).toBe(200);
        return keyReads().length === 0;
      },
      { what: "a request whose key B verified from memory" },
    );

    const revoked = await owner.client.request(`/api/organizations/${organization.id}/api-keys/${created.id}`, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);
    const revokedAt = performance.now();
    let answer = await script.get(members, asKey);
    while (answer.status === 200 && performance.now() - revokedAt < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      answer = await script.get(members, asKey);
    }
    const elapsed = performance.now() - revokedAt;
    await expectError(answer, 401, "The API key is invalid, expired or revoked");
    expect(elapsed).toBeLessThan(WITHIN_MS);
  });
});

/** The per-key limit in the rate-limit tests below; its unsent bound (1 %) is 3. */
const REQUESTS_PER_MINUTE = 300;
/** The limiters' clock, 15 s into a minute. */
const LIMITER_NOW = Date.UTC(2026, 11, 2, 12, 0, 15);
const WINDOW_START = Date.UTC(2026, 11, 2, 12, 0, 0);

/**
 * Two instances counting one key's requests, each in its own memory, sharing the counts through the database or
 * Redis (docs/decisions/0027): together they let at most the limit plus one instance's unsent bound through in a
 * minute. Their limiters sync only when a request must wait for it, so the run is the same every time.
 */
describe.each([
  { store: "the database", env: {} },
  { store: "Redis", env: { REDIS_URL } },
])("an API key's rate limit on two instances sharing $store", ({ env }) => {
  let database: TestDatabase;
  let A: TestApp;
  let B: TestApp;
  let owner: TestUser;
  let organization: { id: string };
  let redis: Redis | undefined;

  beforeAll(async () => {
    if (env.REDIS_URL) {
      redis = new Redis(env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      await redis.connect().catch((error: unknown) => {
        throw new Error(`This test needs a Redis: set TEST_REDIS_URL (now ${REDIS_URL}). ${String(error)}`);
      });
    }
    database = await createTestDatabase();
    const options = {
      database,
      env: { ...env, API_KEY_REQUESTS_PER_MINUTE: String(REQUESTS_PER_MINUTE) },
      apiKeyRateLimit: { now: () => LIMITER_NOW, background: false },
    };
    A = await createTestApp(options);
    B = await createTestApp(options);
    owner = await createVerifiedUser(A, { label: "owner" });
    organization = await createOrganizationWithOwner(owner, "Acme");
  });
  afterAll(async () => {
    redis?.disconnect();
    await A?.close();
    await B?.close();
    await database?.drop();
  });

  it("lets at most the limit and 1 % more through both, refuses the rest, counts each once", async () => {
    const { id, key } = (
      await owner.client.post(`/api/organizations/${organization.id}/api-keys`, {
        name: "busy",
        scopes: ["members:read"],
      })
    ).data as CreatedApiKey;
    const members = `/api/organizations/${organization.id}/members`;
    const asKey = { headers: { authorization: `Bearer ${key}` } };
    const clients = [createClient(A), createClient(B)];
    let admitted = 0;
    for (let count = 0; count < REQUESTS_PER_MINUTE + 100; count += 1) {
      const answer = await clients[count % 2]!.get(members, asKey);
      if (answer.status === 200) admitted += 1;
      else {
        await expectError(answer, 429, "Too many requests. Please try again later.");
        expect(answer.headers.get("retry-after")).toBe("45");
      }
    }
    expect(admitted).toBeGreaterThanOrEqual(REQUESTS_PER_MINUTE);
    expect(admitted).toBeLessThanOrEqual(REQUESTS_PER_MINUTE + 3);
    // Once both have seen the other's counts, both refuse.
    for (const client of clients) expect((await client.get(members, asKey)).status).toBe(429);

    await A.services.apiKeyRateLimiter.syncNow();
    await B.services.apiKeyRateLimiter.syncNow();
    const counter = `app:api-key:${id}:${WINDOW_START}`;
    const shared = redis
      ? await redis.get(`atrium:rate-limit:${counter}`)
      : (await A.db.selectFrom("rateLimit").select("count").where("key", "=", counter).executeTakeFirst())?.count;
    expect(Number(shared)).toBe(admitted);
  });
});

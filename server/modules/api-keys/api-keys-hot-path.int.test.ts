import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedApiKey } from "../../../common/api-key.schemas";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createClient, expectError, type TestClient } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

const INVALID = "The API key is invalid, expired or revoked";
const SCOPE_MISSING = "This API key does not have the scope this call needs";
const OTHER_ORGANIZATION = "This API key belongs to another organization";
const TOO_MANY = "Too many requests. Please try again later.";
/** The deployment's per-key limit in this file: its unsent bound (1 %) is 10. */
const REQUESTS_PER_MINUTE = 1000;
/** The limiter's clock, 15 s into a minute: a refusal's Retry-After is the 45 s left of it. */
const LIMITER_START = Date.UTC(2026, 11, 2, 12, 0, 15);

/**
 * The request path of an organization API key on one instance (docs/decisions/0027): its answers replayed from
 * memory to that key alone, and its rate limit counted in process and shared with the store only now and then.
 * The read cache reads the change feed when the test says so and the limiter syncs only when it must, so which
 * request is replayed and which one writes is decided, not hoped for.
 */
describe("an API key's hot path", () => {
  let app: TestApp;
  let owner: TestUser;
  let organization: { id: string };
  let other: { id: string };
  let outsider: TestUser;
  let script: TestClient;
  const statements: string[] = [];
  const limiterClock = { now: LIMITER_START };
  const cacheNow = Date.now();

  beforeAll(async () => {
    app = await createTestApp({
      env: { API_KEY_REQUESTS_PER_MINUTE: String(REQUESTS_PER_MINUTE) },
      onQuery: (sql) => statements.push(sql),
      readCache: { poll: false, now: () => cacheNow },
      apiKeyRateLimit: { now: () => limiterClock.now, background: false },
    });
    owner = await createVerifiedUser(app, { label: "owner" });
    outsider = await createVerifiedUser(app, { label: "outsider" });
    organization = await createOrganizationWithOwner(owner, "Acme");
    other = await createOrganizationWithOwner(outsider, "Other");
    script = createClient(app);
    await app.services.readCache.pollNow();
  });
  afterAll(async () => {
    await app?.close();
  });

  const membersPath = () => `/api/organizations/${organization.id}/members`;
  const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
  async function createKey(by: TestUser, scopes: string[], organizationId = organization.id) {
    const response = await by.client.post(`/api/organizations/${organizationId}/api-keys`, { name: "script", scopes });
    expect(response.status).toBe(201);
    return response.data as CreatedApiKey;
  }
  async function sharedCount(keyId: string): Promise<number | undefined> {
    await app.services.apiKeyRateLimiter.syncNow();
    const row = await app.db
      .selectFrom("rateLimit")
      .select("count")
      .where("key", "=", `app:api-key:${keyId}:${Date.UTC(2026, 11, 2, 12, 0, 0)}`)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.count);
  }

  it("replays a key's members list from memory to that key alone, counted against its limit", async () => {
    const reader = await createKey(owner, ["members:read"]);
    const first = await script.get(membersPath(), bearer(reader.key));
    expect(first.status).toBe(200);
    // Kept from the second read of the same request on.
    expect((await script.get(membersPath(), bearer(reader.key))).status).toBe(200);
    statements.length = 0;
    const replayed = await script.get(membersPath(), bearer(reader.key));
    expect(replayed.status).toBe(200);
    expect(replayed.data).toEqual(first.data);
    expect(statements).toEqual([]);
    expect(await sharedCount(reader.id)).toBe(3);

    // Another key of the organization with the same scope gets no other key's kept answer: it is read for it.
    const second = await createKey(owner, ["members:read"]);
    statements.length = 0;
    expect((await script.get(membersPath(), bearer(second.key))).status).toBe(200);
    expect(statements.some((sql) => sql.includes('from "api_key"'))).toBe(true);
    expect(statements.some((sql) => sql.includes('from "member"'))).toBe(true);

    // A key without the scope, and a key of another organization, are refused however often the list was replayed.
    const teamsOnly = await createKey(owner, ["teams:read"]);
    const foreign = await createKey(outsider, ["members:read"], other.id);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await expectError(await script.get(membersPath(), bearer(teamsOnly.key)), 403, SCOPE_MISSING);
      await expectError(await script.get(membersPath(), bearer(foreign.key)), 403, OTHER_ORGANIZATION);
    }
    // Nor does the owner's session: its first read of the list is read for it.
    statements.length = 0;
    expect((await owner.client.get(membersPath())).status).toBe(200);
    expect(statements.some((sql) => sql.includes('from "member"'))).toBe(true);
  });

  it("refuses the request past the key's limit with 429 and Retry-After, writing its counter every 10", async () => {
    const busy = await createKey(owner, ["members:read"]);
    const calm = await createKey(owner, ["members:read"]);
    statements.length = 0;
    const statuses = new Map<number, number>();
    for (let count = 0; count < REQUESTS_PER_MINUTE; count += 1) {
      const { status } = await script.get(membersPath(), bearer(busy.key));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(statuses).toEqual(new Map([[200, REQUESTS_PER_MINUTE]]));
    const refused = await script.get(membersPath(), bearer(busy.key));
    await expectError(refused, 429, TOO_MANY);
    expect(refused.headers.get("retry-after")).toBe("45");
    // One addition to read the total at the first request, one for each 10 requests, one to learn the limit is spent.
    const counterWrites = statements.filter((sql) => sql.startsWith('insert into "rateLimit"'));
    expect(counterWrites).toHaveLength(1 + 99 + 1);
    expect(await sharedCount(busy.id)).toBe(REQUESTS_PER_MINUTE);

    expect((await script.get(membersPath(), bearer(calm.key))).status).toBe(200);
    limiterClock.now = LIMITER_START + 44_500;
    const lastSecond = await script.get(membersPath(), bearer(busy.key));
    await expectError(lastSecond, 429, TOO_MANY);
    expect(lastSecond.headers.get("retry-after")).toBe("1");
    limiterClock.now = LIMITER_START + 45_000;
    expect((await script.get(membersPath(), bearer(busy.key))).status).toBe(200);
  });

  it("refuses a revoked key at once on its instance, though its answer was replayed", async () => {
    const revoked = await createKey(owner, ["members:read"]);
    for (let count = 0; count < 2; count += 1)
      expect((await script.get(membersPath(), bearer(revoked.key))).status).toBe(200);
    statements.length = 0;
    expect((await script.get(membersPath(), bearer(revoked.key))).status).toBe(200);
    expect(statements).toEqual([]);
    const response = await owner.client.request(`/api/organizations/${organization.id}/api-keys/${revoked.id}`, {
      method: "DELETE",
    });
    expect(response.status).toBe(204);
    await expectError(await script.get(membersPath(), bearer(revoked.key)), 401, INVALID);
  });
});

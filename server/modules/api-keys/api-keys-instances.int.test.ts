import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedApiKey } from "../../../common/api-key.schemas";
import { createOrganizationWithOwner, createVerifiedUser, waitFor, type TestUser } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from "../../test/test-database";

/** The bound: a key revoked on one instance is refused by every other within this. */
const WITHIN_MS = 1_000;

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

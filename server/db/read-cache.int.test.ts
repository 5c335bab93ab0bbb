import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { addMember, createOrganizationWithOwner, createVerifiedUser, signInOnNewClient, type CreatedOrganization, type TestUser } from "../test/factories";
import type { TestClient } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";
import { FRESH_FOR_MS, createFeedReader } from "./read-cache";

/**
 * The read cache (docs/decisions/0012) against a real database: how many statements the hot reads issue (a
 * regression fails here), and that a change made anywhere shows within FRESH_FOR_MS.
 */

let app: TestApp;
/** The statements of the app's requests; the change feed's own reads are the cache's upkeep, not a request's. */
const statements: string[] = [];
let owner: TestUser;
let member: TestUser;
let organization: CreatedOrganization;

beforeAll(async () => {
  app = await createTestApp({ onQuery: (text) => statements.push(text) });
  owner = await createVerifiedUser(app, { label: "Owner" });
  member = await createVerifiedUser(app, { label: "Member" });
  organization = await createOrganizationWithOwner(owner, "Budget");
  await addMember(owner, organization.id, member);
  await member.client.post("/api/auth/organization/set-active", { organizationId: organization.id });
});

afterAll(async () => {
  await app?.close();
});

/** The statements one request issues, the change feed's excepted. */
async function statementsOf(call: () => Promise<{ status: number }>): Promise<string[]> {
  const start = statements.length;
  const response = await call();
  expect(response.status).toBe(200);
  return statements.slice(start).filter((text) => !text.includes("cache_invalidation"));
}

/** Polls `read` until `isChanged` holds of its answer; how long that took, in ms (fails after 5 s). */
async function msUntil<T>(read: () => Promise<T>, isChanged: (answer: T) => boolean): Promise<number> {
  const start = performance.now();
  while (!isChanged(await read())) {
    if (performance.now() - start > 5_000) throw new Error("the change did not show within 5 s");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - start;
}

describe("query budgets of the reads every page makes", () => {
  /**
   * Statements of a read that is not kept yet. better-auth's reads count the request (rate limit; once a minute
   * also the purge of old counters), read the session and user, then what they show; the members list checks the
   * session and the membership, then reads a page, the total, the owners and the page's teams. The second read is
   * kept, and asks the session once more for whose it is and until when (session and user).
   */
  const coldBudgets: Array<[string, (organizationId: string) => string, number]> = [
    ["get-session", () => "/api/auth/get-session", 4],
    ["organization/list", () => "/api/auth/organization/list", 6],
    ["organization/get-active-member", () => "/api/auth/organization/get-active-member", 6],
    ["the members list", (organizationId) => `/api/organizations/${organizationId}/members?search=&offset=0&limit=20`, 7],
  ];

  test.each(coldBudgets)("%s: at most its budget of statements on the first two reads, none after", async (_name, pathOf, budget) => {
    const path = pathOf(organization.id);
    const client: TestClient = await signInOnNewClient(app, member.input);
    // The active organization belongs to the session: a new one has none until it is set.
    await client.post("/api/auth/organization/set-active", { organizationId: organization.id });
    for (const extra of [0, 2]) {
      const cold = await statementsOf(() => client.get(path));
      expect(cold.length, cold.join("\n")).toBeGreaterThan(0);
      expect(cold.length, cold.join("\n")).toBeLessThanOrEqual(budget + extra);
    }
    expect(await statementsOf(() => client.get(path))).toEqual([]);
    expect(await statementsOf(() => client.get(path))).toEqual([]);
  });
});

describe("freshness", () => {
  test("the writer's own next read is fresh: signed out, get-session answers null at once", async () => {
    const client = await signInOnNewClient(app, member.input);
    expect((await client.get("/api/auth/get-session")).data.user.id).toBe(member.id);
    expect((await client.get("/api/auth/get-session")).data.user.id).toBe(member.id);
    expect((await client.post("/api/auth/sign-out", {})).status).toBe(200);
    // The cookie the browser no longer has, sent again: better-auth's answer, not a kept one.
    expect((await client.get("/api/auth/get-session")).data).toBeNull();
  });

  test("a change written behind the app's back (another instance, the command line) shows within a second", async () => {
    const client = await signInOnNewClient(app, member.input);
    expect((await client.get("/api/auth/get-session")).data.user.name).toBe(member.name);
    await app.db.updateTable("user").set({ name: "Renamed elsewhere" }).where("id", "=", member.id).execute();
    const ms = await msUntil(
      () => client.get("/api/auth/get-session"),
      (answer) => answer.data?.user?.name === "Renamed elsewhere",
    );
    expect(ms).toBeLessThan(FRESH_FOR_MS);

    const members = `/api/organizations/${organization.id}/members?search=&offset=0&limit=20`;
    const owners = await signInOnNewClient(app, owner.input);
    expect((await owners.get(members)).data.members.map((row: { user: { name: string } }) => row.user.name)).toContain("Renamed elsewhere");
    await app.db.updateTable("member").set({ role: "admin" }).where("userId", "=", member.id).execute();
    const roleMs = await msUntil(
      () => owners.get(members),
      (answer) => answer.data.members.some((row: { userId: string; role: string }) => row.userId === member.id && row.role === "admin"),
    );
    expect(roleMs).toBeLessThan(FRESH_FOR_MS);
  });

  test("while the change feed cannot be read, nothing is answered from memory; it resumes once the feed answers", async () => {
    const client = await signInOnNewClient(app, owner.input);
    await client.get("/api/auth/get-session");
    await client.get("/api/auth/get-session");
    expect(await statementsOf(() => client.get("/api/auth/get-session"))).toEqual([]);
    await sql`alter table cache_invalidation rename to cache_invalidation_away`.execute(app.db);
    try {
      await msUntil(
        () => statementsOf(() => client.get("/api/auth/get-session")),
        (issued) => issued.length > 0,
      );
    } finally {
      await sql`alter table cache_invalidation_away rename to cache_invalidation`.execute(app.db);
    }
    await msUntil(
      async () => {
        await client.get("/api/auth/get-session");
        await client.get("/api/auth/get-session");
        return statementsOf(() => client.get("/api/auth/get-session"));
      },
      (issued) => issued.length === 0,
    );
  });
});

describe("the change feed reader", () => {
  test("applies each row once, waits for an id committed late, and gives up on a gap after its wait", async () => {
    const applied: string[][] = [];
    const reader = createFeedReader(app.db, (tags) => applied.push(tags));
    await reader.read(0); // finds where the feed ends
    const [{ last }] = (await sql<{ last: number | string }>`select coalesce(max(id), 0) as last from cache_invalidation`.execute(app.db)).rows as [
      { last: number | string },
    ];
    const base = Number(last);
    const insert = (offset: number, userId: string) =>
      app.db
        .insertInto("cache_invalidation")
        .values({ id: base + offset, user_id: userId } as never)
        .execute();

    // Ids 1 and 3 are visible, 2 is not yet (a transaction that took it has not committed).
    await insert(1, "u1");
    await insert(3, "u3");
    await reader.read(1_000);
    expect(applied).toEqual([["user:u1", "user:u3"]]);
    await reader.read(1_100);
    expect(applied).toHaveLength(1);
    expect(reader.generation).toBe(1);

    // Id 2 commits late: applied on the next read, once.
    await insert(2, "u2");
    await reader.read(1_200);
    expect(applied).toEqual([["user:u1", "user:u3"], ["user:u2"]]);

    // A gap that never fills (a rolled-back transaction): 5 stays missing while 6 arrives.
    await insert(4, "u4");
    await insert(6, "u6");
    await reader.read(2_000);
    expect(applied.at(-1)).toEqual(["user:u4", "user:u6"]);
    await reader.read(2_000 + 29_000);
    await insert(7, "u7");
    await reader.read(2_000 + 31_000);
    expect(applied.at(-1)).toEqual(["user:u7"]);
    // Past the wait the reader moved on: new rows are applied once each, none of the earlier ones again.
    await insert(8, "u8");
    await reader.read(2_000 + 32_000);
    expect(applied.at(-1)).toEqual(["user:u8"]);
    expect(applied.flat()).toEqual(["user:u1", "user:u3", "user:u2", "user:u4", "user:u6", "user:u7", "user:u8"]);
    // The ids above were chosen by hand: PostgreSQL's sequence must move past them for the triggers' next rows.
    if (app.dialect === "postgres") await sql`select setval(pg_get_serial_sequence('cache_invalidation', 'id'), ${base + 8})`.execute(app.db);
  });
});

import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLogger } from "../logger";
import {
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  signInOnNewClient,
  waitFor,
  type CreatedOrganization,
  type TestUser,
} from "../test/factories";
import type { TestClient, TestResponse } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";
import { FRESH_FOR_MS, createFeedReader, createReadCache, userTag } from "./read-cache";

/**
 * The read cache (docs/decisions/0012) against a real database: how many statements the hot reads issue (a
 * regression fails here), and that a change made anywhere shows within FRESH_FOR_MS. The app's cache is driven by
 * the test: its clock moves only when the test moves it, and it reads the change feed when the test says so
 * (`pollNow`) or a request writes; nothing depends on a background poll having run in time on a busy machine.
 */

let app: TestApp;
/** The statements of the app's requests; the change feed's own reads are the cache's upkeep, not a request's. */
const statements: string[] = [];
let owner: TestUser;
let member: TestUser;
let organization: CreatedOrganization;
/** The app's read cache's clock (ms since the epoch), moved on by hand. */
let clock = Date.now();

beforeAll(async () => {
  app = await createTestApp({ onQuery: (text) => statements.push(text), readCache: { poll: false, now: () => clock } });
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

const pollNow = () => app.services.readCache.pollNow();
/**
 * A read of the organization's members page that is a first read every time (the API ignores `read`), so nothing is
 * replayed: only the session and the membership may be kept.
 */
function firstReads(client: TestClient, organizationId: string): () => Promise<TestResponse> {
  let reads = 0;
  return () => client.get(`/api/organizations/${organizationId}/members?search=&offset=0&read=${(reads += 1)}`);
}
/** Whether statements hold the membership check of the organization routes (with the organization's policy). */
const readsMembership = (statements: string[]) =>
  statements.some((text) => /from "member" inner join "organization"/.test(text));

describe("query budgets of the reads every page makes", () => {
  /**
   * Statements of a read that is not kept yet. better-auth's reads count the request (rate limit; once a minute
   * also the purge of old counters), read the session and user, then what they show; the members list checks the
   * session and the membership, then reads a page, the total, the owners and the page's teams. list-members checks
   * the membership with the organization's security policy, then reads a page with its total in one statement.
   * get-full-organization checks the policy and the membership, then better-auth reads what it shows. The second read
   * is kept, and asks the session once more for whose it is and until when (session and user).
   */
  const coldBudgets: Array<[string, (organizationId: string) => string, number]> = [
    ["get-session", () => "/api/auth/get-session", 4],
    ["organization/list", () => "/api/auth/organization/list", 6],
    ["organization/get-active-member", () => "/api/auth/organization/get-active-member", 6],
    [
      "the members list",
      (organizationId) => `/api/organizations/${organizationId}/members?search=&offset=0&limit=20`,
      7,
    ],
    [
      "organization/list-members",
      (organizationId) => `/api/auth/organization/list-members?organizationId=${organizationId}&limit=100&offset=1`,
      5,
    ],
    [
      "organization/get-full-organization",
      (organizationId) => `/api/auth/organization/get-full-organization?organizationId=${organizationId}`,
      10,
    ],
  ];

  test.each(coldBudgets)(
    "%s: at most its budget of statements on the first two reads, none after",
    async (_name, pathOf, budget) => {
      const path = pathOf(organization.id);
      const client: TestClient = await signInOnNewClient(app, member.input);
      // The active organization belongs to the session: a new one has none until it is set.
      await client.post("/api/auth/organization/set-active", { organizationId: organization.id });
      await pollNow();
      for (const extra of [0, 2]) {
        const cold = await statementsOf(() => client.get(path));
        expect(cold.length, cold.join("\n")).toBeGreaterThan(0);
        expect(cold.length, cold.join("\n")).toBeLessThanOrEqual(budget + extra);
      }
      expect(await statementsOf(() => client.get(path))).toEqual([]);
      expect(await statementsOf(() => client.get(path))).toEqual([]);
    },
  );
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

  test("a change written behind the app's back (another instance, SQL) shows once the feed is read", async () => {
    const client = await signInOnNewClient(app, member.input);
    await pollNow();
    expect((await client.get("/api/auth/get-session")).data.user.name).toBe(member.name);
    expect((await client.get("/api/auth/get-session")).data.user.name).toBe(member.name);
    await app.db.updateTable("user").set({ name: "Renamed elsewhere" }).where("id", "=", member.id).execute();
    // Until the feed is read the kept answer may be replayed: the bound below is what limits that.
    expect((await client.get("/api/auth/get-session")).data.user.name).toBe(member.name);
    await pollNow();
    expect((await client.get("/api/auth/get-session")).data.user.name).toBe("Renamed elsewhere");

    const members = `/api/organizations/${organization.id}/members?search=&offset=0&limit=20`;
    const owners = await signInOnNewClient(app, owner.input);
    await pollNow();
    const roleOf = async () => {
      const rows = (await owners.get(members)).data.members as Array<{ userId: string; role: string }>;
      return rows.find((row) => row.userId === member.id)?.role;
    };
    expect([await roleOf(), await roleOf(), await roleOf()]).toEqual(["member", "member", "member"]);
    await app.db.updateTable("member").set({ role: "admin" }).where("userId", "=", member.id).execute();
    await pollNow();
    expect(await roleOf()).toBe("admin");
  });

  test("an organization's kept list-members and get-full-organization show an invitation or a role written elsewhere", async () => {
    const client = await signInOnNewClient(app, owner.input);
    await app.db.updateTable("member").set({ role: "member" }).where("userId", "=", member.id).execute();
    await pollNow();
    const full = `/api/auth/organization/get-full-organization?organizationId=${organization.id}`;
    const listed = `/api/auth/organization/list-members?organizationId=${organization.id}&limit=10`;
    const invited = async () =>
      ((await client.get(full)).data.invitations as Array<{ email: string }>).some(
        ({ email }) => email === "elsewhere@example.test",
      );
    const roleOf = async () =>
      ((await client.get(listed)).data.members as Array<{ userId: string; role: string }>).find(
        (row) => row.userId === member.id,
      )?.role;
    expect([await invited(), await invited()]).toEqual([false, false]);
    expect([await roleOf(), await roleOf()]).toEqual(["member", "member"]);
    expect(await statementsOf(() => client.get(full))).toEqual([]);
    expect(await statementsOf(() => client.get(listed))).toEqual([]);

    // ISO strings, which both databases store as better-auth's own writes do.
    const now = new Date();
    await app.db
      .insertInto("invitation")
      .values({
        id: "invitation-written-elsewhere",
        organizationId: organization.id,
        email: "elsewhere@example.test",
        role: "member",
        status: "pending",
        expiresAt: new Date(now.getTime() + 86_400_000).toISOString(),
        createdAt: now.toISOString(),
        inviterId: owner.id,
      })
      .execute();
    await pollNow();
    expect(await invited()).toBe(true);
    await app.db.updateTable("member").set({ role: "admin" }).where("userId", "=", member.id).execute();
    await pollNow();
    expect(await roleOf()).toBe("admin");
    await app.db.deleteFrom("invitation").where("id", "=", "invitation-written-elsewhere").execute();
    await pollNow();
  });

  test("a read's session is kept until the feed says it changed; a write always reads it from the database", async () => {
    const client = await signInOnNewClient(app, member.input);
    await pollNow();
    const read = firstReads(client, organization.id);
    const readsSession = (statements: string[]) => statements.some((text) => /from "session"/.test(text));
    expect(readsSession(await statementsOf(read))).toBe(true);
    expect(readsSession(await statementsOf(read))).toBe(false);
    expect(readsSession(await statementsOf(() => client.get("/api/organizations/slug-availability?slug=kept")))).toBe(
      false,
    );

    // Signed out elsewhere: the session's row is gone, and this instance has not read the feed yet.
    const { id } = (await client.get("/api/auth/get-session")).data.session as { id: string };
    await app.db.deleteFrom("session").where("id", "=", id).execute();
    // Until the feed is read the kept session may still admit a read (FRESH_FOR_MS bounds that), never a write.
    expect((await read()).status).toBe(200);
    const write = await client.post(`/api/organizations/${organization.id}/invitations`, {
      email: "kept-session@example.test",
      role: "member",
    });
    expect([write.status, write.data.message]).toEqual([401, "Unauthorized"]);
    // The write's request waited for this instance to read the feed: the next read is refused too.
    const after = await read();
    expect([after.status, after.data.message]).toEqual([401, "Unauthorized"]);
  });

  test("a read's membership is kept until the feed drops it; a write always reads it from the database", async () => {
    const admin = await createVerifiedUser(app, { label: "Kept membership" });
    await addMember(owner, organization.id, admin, "admin");
    const client = await signInOnNewClient(app, admin.input);
    await pollNow();
    const read = firstReads(client, organization.id);
    expect(readsMembership(await statementsOf(read))).toBe(true);
    expect(readsMembership(await statementsOf(read))).toBe(false);

    // Removed elsewhere: the membership's row is gone, and this instance has not read the feed yet.
    await app.db
      .deleteFrom("member")
      .where("organizationId", "=", organization.id)
      .where("userId", "=", admin.id)
      .execute();
    // Until the feed is read the kept membership may still admit a read (FRESH_FOR_MS bounds that), never a write.
    expect((await read()).status).toBe(200);
    const write = await client.post(`/api/organizations/${organization.id}/invitations`, {
      email: "kept-membership@example.test",
      role: "member",
    });
    expect([write.status, write.data.message]).toEqual([403, "user is not a member of the organization"]);
    // The write's request waited for this instance to read the feed: the next read is refused too.
    const after = await read();
    expect([after.status, after.data.message]).toEqual([403, "user is not a member of the organization"]);
  });

  test("while the organization requires a second factor, every read asks the database for the membership", async () => {
    // Removing one's second factor is not in the change feed: a kept membership would outlive it.
    const policyOwner = await createVerifiedUser(app, { label: "Policy owner" });
    const guarded = await createOrganizationWithOwner(policyOwner, "Guarded");
    await app.db.updateTable("user").set({ twoFactorEnabled: 1 }).where("id", "=", policyOwner.id).execute();
    await app.db.updateTable("organization").set({ requireTwoFactor: 1 }).where("id", "=", guarded.id).execute();
    await pollNow();
    const read = firstReads(policyOwner.client, guarded.id);
    expect(readsMembership(await statementsOf(read))).toBe(true);
    expect(readsMembership(await statementsOf(read))).toBe(true);
    await app.db.updateTable("user").set({ twoFactorEnabled: 0 }).where("id", "=", policyOwner.id).execute();
    const refused = await read();
    expect([refused.status, refused.data.code]).toEqual([403, "TWO_FACTOR_REQUIRED"]);
  });

  test("nothing is answered from memory once the last read of the feed began FRESH_FOR_MS ago", async () => {
    const client = await signInOnNewClient(app, member.input);
    await pollNow();
    const name = async () => ((await client.get("/api/auth/get-session")).data as { user: { name: string } }).user.name;
    const before = await name();
    expect(await name()).toBe(before);
    expect(await statementsOf(() => client.get("/api/auth/get-session"))).toEqual([]);
    await app.db.updateTable("user").set({ name: "Renamed, feed not read" }).where("id", "=", member.id).execute();
    const readAt = clock;
    clock = readAt + FRESH_FOR_MS - 1;
    expect(await name()).toBe(before);
    clock = readAt + FRESH_FOR_MS;
    expect(await name()).toBe("Renamed, feed not read");
    // Read again, the feed makes the cache current: it drops the stale answer and replays the fresh one.
    await pollNow();
    expect(await name()).toBe("Renamed, feed not read");
    expect(await name()).toBe("Renamed, feed not read");
    expect(await statementsOf(() => client.get("/api/auth/get-session"))).toEqual([]);
  });

  test("while the change feed cannot be read, nothing is answered from memory; it resumes once the feed answers", async () => {
    const client = await signInOnNewClient(app, owner.input);
    await pollNow();
    await client.get("/api/auth/get-session");
    await client.get("/api/auth/get-session");
    expect(await statementsOf(() => client.get("/api/auth/get-session"))).toEqual([]);
    await sql`alter table cache_invalidation rename to cache_invalidation_away`.execute(app.db);
    try {
      await expect(pollNow()).rejects.toThrow();
      expect((await statementsOf(() => client.get("/api/auth/get-session"))).length).toBeGreaterThan(0);
    } finally {
      await sql`alter table cache_invalidation_away rename to cache_invalidation`.execute(app.db);
    }
    await pollNow();
    await client.get("/api/auth/get-session");
    await client.get("/api/auth/get-session");
    expect(await statementsOf(() => client.get("/api/auth/get-session"))).toEqual([]);
  });

  test("outside tests the cache reads the feed by itself and drops what a change made stale", async () => {
    // A cache of its own with the background poll on; its clock stands still, so only the poll can drop the entry.
    const stopped = Date.now();
    const cache = createReadCache(app.db, { logger: createLogger("silent"), now: () => stopped });
    try {
      await cache.pollNow();
      cache.set("the member's name", member.name, { tags: [userTag(member.id)] }, cache.ticket());
      expect(cache.get("the member's name")).toBe(member.name);
      await app.db.updateTable("user").set({ name: "Renamed for the poll" }).where("id", "=", member.id).execute();
      // No bound on how soon (the machine may be busy): the poll, not a request or the test, reads the change.
      const dropped = () => cache.get("the member's name") === undefined;
      await waitFor(dropped, { timeoutMs: 20_000, what: "the poll to drop the entry" });
    } finally {
      await cache.stop();
    }
  });
});

describe("the change feed reader", () => {
  test("applies each row once, waits for an id committed late, and gives up on a gap after its wait", async () => {
    const applied: string[][] = [];
    const reader = createFeedReader(app.db, (tags) => applied.push(tags));
    await reader.read(0); // finds where the feed ends
    const [{ last }] = (
      await sql<{ last: number | string }>`select coalesce(max(id), 0) as last from cache_invalidation`.execute(app.db)
    ).rows as [{ last: number | string }];
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
    if (app.dialect === "postgres")
      await sql`select setval(pg_get_serial_sequence('cache_invalidation', 'id'), ${base + 8})`.execute(app.db);
  });
});

import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activeOrganizationOf,
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  signInOnNewClient,
  type TestUser,
} from "../../test/factories";
import { organizationRow, memberRow, sessionsOf } from "../../test/organization-rows";
import { createClient, expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";
import { findMembers } from "./organizations.repository";

/**
 * The organization rules of the product spec (sections 3–8) through the HTTP API: exact statuses and the
 * spec's lower-case messages (better-auth's are rewritten by server/auth/spec-errors.ts). Members: removing, leaving, listing.
 */

let server: TestApp;

beforeAll(async () => {
  server = await createTestApp();
});

afterAll(async () => {
  await server?.close();
});

describe("members: removing and leaving (spec sections 4–6)", () => {
  it("the last owner can neither leave nor be removed: 400 'you cannot leave the organization as the only owner'", async () => {
    const owner = await createVerifiedUser(server, { label: "sole-owner" });
    const admin = await createVerifiedUser(server, { label: "sole-admin" });
    const organization = await createOrganizationWithOwner(owner, "Sole");
    await addMember(owner, organization.id, admin, "admin");
    const ownerMember = await memberRow(server, organization.id, owner.id);

    await expectError(
      await owner.client.post("/api/auth/organization/leave", { organizationId: organization.id }),
      400,
      "you cannot leave the organization as the only owner",
    );
    await expectError(
      await owner.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: ownerMember!.id,
        organizationId: organization.id,
      }),
      400,
      "you cannot leave the organization as the only owner",
    );
    expect(await memberRow(server, organization.id, owner.id)).toBeDefined();
  });

  it("only an owner removes an owner; removing needs member delete (401 'not allowed to delete this member')", async () => {
    const [owner, secondOwner, admin, member] = await Promise.all([
      createVerifiedUser(server, { label: "rm-owner" }),
      createVerifiedUser(server, { label: "rm-owner2" }),
      createVerifiedUser(server, { label: "rm-admin" }),
      createVerifiedUser(server, { label: "rm-member" }),
    ]);
    const organization = await createOrganizationWithOwner(owner, "Removals");
    await addMember(owner, organization.id, secondOwner, "owner");
    await addMember(owner, organization.id, admin, "admin");
    const memberId = await addMember(owner, organization.id, member, "member");

    // Another owner remains, yet an admin (who may delete members) cannot remove an owner.
    await expectError(
      await admin.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: secondOwner.email,
        organizationId: organization.id,
      }),
      401,
      "not allowed to delete this member",
    );
    const secondOwnerMember = await memberRow(server, organization.id, secondOwner.id);
    expect(secondOwnerMember).toBeDefined();
    await expectError(
      await admin.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: secondOwnerMember!.id,
        organizationId: organization.id,
      }),
      401,
      "not allowed to delete this member",
    );
    expect(await memberRow(server, organization.id, secondOwner.id)).toBeDefined();

    await expectError(
      await member.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: admin.email,
        organizationId: organization.id,
      }),
      401,
      "not allowed to delete this member",
    );
    expect(await memberRow(server, organization.id, admin.id)).toBeDefined();

    // An admin may remove a plain member (by id)…
    const removed = await admin.client.post("/api/auth/organization/remove-member", {
      memberIdOrEmail: memberId,
      organizationId: organization.id,
    });
    expect(removed.status).toBe(200);
    expect(removed.data.member).toMatchObject({ id: memberId, userId: member.id });
    expect(await memberRow(server, organization.id, member.id)).toBeUndefined();

    // …and an owner removes another owner (by e-mail: an identifier with '@' is an e-mail).
    const ownerRemoved = await owner.client.post("/api/auth/organization/remove-member", {
      memberIdOrEmail: secondOwner.email,
      organizationId: organization.id,
    });
    expect(ownerRemoved.status).toBe(200);
    expect(ownerRemoved.data.member).toMatchObject({ userId: secondOwner.id });
    expect(await memberRow(server, organization.id, secondOwner.id)).toBeUndefined();
  });

  it("answers 400 'member not found' for an unknown member id or e-mail", async () => {
    const owner = await createVerifiedUser(server, { label: "mnf-owner" });
    const organization = await createOrganizationWithOwner(owner, "Missing member");
    await expectError(
      await owner.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: "no-such-member",
        organizationId: organization.id,
      }),
      400,
      "member not found",
    );
    await expectError(
      await owner.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: "nobody@example.test",
        organizationId: organization.id,
      }),
      400,
      "member not found",
    );
  });

  it("a removed member loses the organization as active in every session", async () => {
    const owner = await createVerifiedUser(server, { label: "clear-owner" });
    const member = await createVerifiedUser(server, { label: "clear-member" });
    const organization = await createOrganizationWithOwner(owner, "Clearing");
    await addMember(owner, organization.id, member, "member");
    const secondSession = await signInOnNewClient(server, member.input);
    for (const client of [member.client, secondSession]) {
      expect((await client.post("/api/auth/organization/set-active", { organizationId: organization.id })).status).toBe(
        200,
      );
    }
    expect((await sessionsOf(server, member.id)).map((session) => session.activeOrganizationId)).toEqual([
      organization.id,
      organization.id,
    ]);

    const removed = await owner.client.post("/api/auth/organization/remove-member", {
      memberIdOrEmail: member.email,
      organizationId: organization.id,
    });
    expect(removed.status).toBe(200);

    expect((await sessionsOf(server, member.id)).map((session) => session.activeOrganizationId)).toEqual([null, null]);
    expect(await activeOrganizationOf(member.client)).toBeNull();
    expect(await activeOrganizationOf(secondSession)).toBeNull();
    // The owner's own active organization is untouched.
    expect(await activeOrganizationOf(owner.client)).toBe(organization.id);
  });

  it("a member who leaves loses the organization as active in every session, other organizations stay", async () => {
    const owner = await createVerifiedUser(server, { label: "leave-owner" });
    const member = await createVerifiedUser(server, { label: "leave-member" });
    const organization = await createOrganizationWithOwner(owner, "Leaving");
    const otherOrganization = await createOrganizationWithOwner(member, "Own");
    await addMember(owner, organization.id, member, "member");
    const secondSession = await signInOnNewClient(server, member.input);
    const thirdSession = await signInOnNewClient(server, member.input);
    expect(
      (await member.client.post("/api/auth/organization/set-active", { organizationId: organization.id })).status,
    ).toBe(200);
    expect(
      (await secondSession.post("/api/auth/organization/set-active", { organizationId: organization.id })).status,
    ).toBe(200);
    expect(
      (await thirdSession.post("/api/auth/organization/set-active", { organizationId: otherOrganization.id })).status,
    ).toBe(200);

    const left = await member.client.post("/api/auth/organization/leave", { organizationId: organization.id });
    expect(left.status).toBe(200);

    expect(await activeOrganizationOf(member.client)).toBeNull();
    expect(await activeOrganizationOf(secondSession)).toBeNull();
    expect(await activeOrganizationOf(thirdSession)).toBe(otherOrganization.id);
    expect(await memberRow(server, organization.id, member.id)).toBeUndefined();
  });

  it("answers 400 'user is not a member of the organization' and 400 'organization not found'", async () => {
    const owner = await createVerifiedUser(server, { label: "nm-owner" });
    const stranger = await createVerifiedUser(server, { label: "nm-stranger" });
    const organization = await createOrganizationWithOwner(owner, "Members only");
    await expectError(
      await stranger.client.post("/api/auth/organization/update", {
        organizationId: organization.id,
        data: { name: "Hijacked" },
      }),
      400,
      "user is not a member of the organization",
    );
    await expectError(
      await stranger.client.get(`/api/auth/organization/get-full-organization?organizationId=${organization.id}`),
      400,
      "user is not a member of the organization",
    );
    await expectError(
      await stranger.client.get("/api/auth/organization/get-full-organization?organizationId=no-such-organization"),
      400,
      "organization not found",
    );
    expect((await organizationRow(server, organization.id))?.name).toBe("Members only");
  });

  it("answers 400 'no active organization' when none is given or active", async () => {
    const user = await createVerifiedUser(server, { label: "no-active" });
    await expectError(
      await user.client.post("/api/auth/organization/create-team", { name: "Floating" }),
      400,
      "no active organization",
    );
    await expectError(await user.client.get("/api/auth/organization/list-teams"), 400, "no active organization");
  });
});

describe("GET /api/organizations/:organizationId/members", () => {
  it("lists members with their user and teams, searched and paged, to members only", async () => {
    const owner = await createVerifiedUser(server, { label: "list-owner" });
    const organization = await createOrganizationWithOwner(owner, "Listing");
    const [alice, bob] = await Promise.all([
      createVerifiedUser(server, { label: "alice-zebra" }),
      createVerifiedUser(server, { label: "bob-yak" }),
    ]);
    await addMember(owner, organization.id, alice, "admin");
    await addMember(owner, organization.id, bob, "member");
    const path = `/api/organizations/${organization.id}/members`;

    const all = await bob.client.get(path);
    expect(all.status).toBe(200);
    expect(all.data).toMatchObject({ total: 3, limit: 20, offset: 0 });
    const byUser = new Map(
      (
        all.data.members as Array<{
          userId: string;
          role: string;
          user: { email: string };
          teams: Array<{ id: string }>;
        }>
      ).map((member) => [member.userId, member]),
    );
    expect(byUser.get(owner.id)).toMatchObject({
      role: "owner",
      user: { email: owner.email },
      teams: [{ id: organization.defaultTeamId }],
    });
    expect(byUser.get(alice.id)).toMatchObject({ role: "admin", teams: [] });

    const searched = await bob.client.get(`${path}?search=ZEBRA`);
    expect(searched.data.total).toBe(1);
    // The owners are counted across the organization, whatever the search.
    expect(searched.data.ownerCount).toBe(1);
    expect(searched.data.members.map((member: { userId: string }) => member.userId)).toEqual([alice.id]);
    // LIKE wildcards in the search are literal characters.
    expect((await bob.client.get(`${path}?search=%25`)).data.total).toBe(0);

    const firstPage = await bob.client.get(`${path}?limit=2&offset=0`);
    const secondPage = await bob.client.get(`${path}?limit=2&offset=2`);
    expect(firstPage.data.members).toHaveLength(2);
    expect(secondPage.data).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(secondPage.data.members).toHaveLength(1);
    // A page past the end still answers the total and the owners.
    const pastTheEnd = await bob.client.get(`${path}?limit=2&offset=10`);
    expect(pastTheEnd.data).toMatchObject({ members: [], total: 3, ownerCount: 1, offset: 10 });
    const pagedIds = [...firstPage.data.members, ...secondPage.data.members]
      .map((member: { userId: string }) => member.userId)
      .sort();
    expect(pagedIds).toEqual([owner.id, alice.id, bob.id].sort());

    expect((await bob.client.get(`${path}?limit=0`)).status).toBe(400);
    // A second owner, holding it in a list of roles, counts too.
    const carol = await createVerifiedUser(server, { label: "carol-owner" });
    await addMember(owner, organization.id, carol, ["member", "owner"]);
    expect((await bob.client.get(`${path}?search=ZEBRA`)).data).toMatchObject({ total: 1, ownerCount: 2 });
    await expectError(await createClient(server).get(path), 401, "Unauthorized");
  });

  it("a search pages its matches in the list's order, follows a renamed member and forgets a removed one", async () => {
    const owner = await createVerifiedUser(server, { label: "search-owner" });
    const organization = await createOrganizationWithOwner(owner, "Searching");
    const heron = await Promise.all([1, 2, 3].map(() => createVerifiedUser(server, { label: "Grey Heron" })));
    for (const user of heron) await addMember(owner, organization.id, user, "member");
    const path = `/api/organizations/${organization.id}/members`;
    const userIds = (response: { data: { members: Array<{ userId: string }> } }) =>
      response.data.members.map((member) => member.userId);

    const firstPage = await owner.client.get(`${path}?search=heron&limit=2&offset=0`);
    const secondPage = await owner.client.get(`${path}?search=heron&limit=2&offset=2`);
    expect(firstPage.data).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(secondPage.data).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect([...userIds(firstPage), ...userIds(secondPage)]).toEqual(heron.map((user) => user.id));
    // By e-mail and by username too, case aside.
    const [first, second, third] = heron as [TestUser, TestUser, TestUser];
    expect(userIds(await owner.client.get(`${path}?search=${first.email.toUpperCase()}`))).toEqual([first.id]);
    const username = first.email.replace(/^user\.(.*)@.*$/, "user_$1");
    expect(userIds(await owner.client.get(`${path}?search=${username}`))).toEqual([first.id]);

    expect((await second.client.post("/api/auth/update-user", { name: "Little Egret" })).status).toBe(200);
    expect(userIds(await owner.client.get(`${path}?search=egret`))).toEqual([second.id]);
    expect(userIds(await owner.client.get(`${path}?search=heron`))).toEqual([first.id, third.id]);

    const member = await memberRow(server, organization.id, third.id);
    const removed = await owner.client.post("/api/auth/organization/remove-member", {
      memberIdOrEmail: member?.id,
      organizationId: organization.id,
    });
    expect(removed.status).toBe(200);
    expect((await owner.client.get(`${path}?search=heron`)).data).toMatchObject({ total: 1 });
  });

  it("a page without a search keeps one plan per connection, right at every offset; a search does not", async () => {
    const owner = await createVerifiedUser(server, { label: "planned-owner" });
    const organization = await createOrganizationWithOwner(owner, "Planned");
    for (const label of ["planned-1", "planned-2", "planned-3", "planned-4"])
      await addMember(owner, organization.id, await createVerifiedUser(server, { label }));
    const scope = { organizationId: organization.id, userId: owner.id, memberId: "", roles: ["owner"] };
    const everyone = (await findMembers(server.db, scope, { limit: 5, offset: 0 })).members.map((m) => m.userId);
    expect(everyone).toHaveLength(5);
    await server.db.connection().execute(async (db) => {
      // Eight reads on one connection: from the sixth on, PostgreSQL may run the plan it made without the values.
      for (let read = 0; read < 8; read += 1) {
        const offset = read % 5;
        const page = await findMembers(db, scope, { limit: 2, offset });
        expect(page.members.map((m) => m.userId)).toEqual(everyone.slice(offset, offset + 2));
        expect(page.total).toBe(5);
      }
      expect((await findMembers(db, scope, { limit: 2, offset: 0, search: "planned-3" })).total).toBe(1);
      if (server.dialect !== "postgres") return;
      const kept = await sql<{ statement: string; generic_plans: string }>`select statement, generic_plans
        from pg_prepared_statements`.execute(db);
      // The connection may also hold the page of a search found in memory (ADR 0037), which earlier tests made.
      const pages = kept.rows.filter((row) =>
        /^with "page" as materialized \(select "member"\."id"/.test(row.statement),
      );
      expect(pages).toHaveLength(1);
      expect(Number(pages[0]?.generic_plans)).toBeGreaterThan(0);
      expect(kept.rows.filter((row) => row.statement.includes("member_search"))).toEqual([]);
    });
  });

  it("its total follows memberships added one at a time, moved, changed and removed many at once", async () => {
    const owner = await createVerifiedUser(server, { label: "count-owner" });
    const counting = await createOrganizationWithOwner(owner, "Counting");
    const elsewhere = await createOrganizationWithOwner(owner, "Counted elsewhere");
    const totalOf = async (organizationId: string) => {
      const scope = { organizationId, userId: owner.id, memberId: "", roles: ["owner"] };
      return (await findMembers(server.db, scope, { limit: 1, offset: 0 })).total;
    };
    // Written behind the app's back, one statement each: on PostgreSQL, more rows of changes than a read keeps.
    const now = new Date().toISOString();
    const userIds = Array.from({ length: 101 }, (_, index) => `${counting.id}-counted-${index}`);
    for (const id of userIds) {
      const verified = server.dialect === "postgres" ? true : 1;
      const user = { id, name: "Counted", email: `${id}@count.example`, emailVerified: verified };
      await server.db
        .insertInto("user")
        .values({ ...user, createdAt: now, updatedAt: now })
        .execute();
      const member = { id: `member-${id}`, organizationId: counting.id, userId: id, role: "member" };
      await server.db
        .insertInto("member")
        .values({ ...member, createdAt: now })
        .execute();
    }
    expect(await totalOf(counting.id)).toBe(102);
    if (server.dialect === "postgres") {
      // That read folded the organization's 102 rows of changes into one.
      const rows = await sql<{ rows: string }>`select count(*) as rows from member_count_delta
        where organization_id = ${counting.id}`.execute(server.db);
      expect(rows.rows).toEqual([{ rows: "1" }]);
    }
    expect(await totalOf(counting.id)).toBe(102);

    await server.db
      .updateTable("member")
      .set({ organizationId: elsewhere.id })
      .where("userId", "=", userIds[0]!)
      .execute();
    await server.db.updateTable("member").set({ role: "admin" }).where("userId", "in", userIds.slice(1, 5)).execute();
    expect([await totalOf(counting.id), await totalOf(elsewhere.id)]).toEqual([101, 2]);
    await server.db.deleteFrom("member").where("userId", "in", userIds).execute();
    expect([await totalOf(counting.id), await totalOf(elsewhere.id)]).toEqual([1, 1]);
    await server.db.deleteFrom("user").where("id", "in", userIds).execute();
  });
});

describe("GET /api/auth/organization/list-members", () => {
  type Listed = { members: Array<{ id: string; createdAt: string; userId: string }>; total: number };
  const byId = (listed: Listed) => [...listed.members].sort((a, b) => a.id.localeCompare(b.id));

  it("answers a page from the members list's statement: better-auth's members and total, in order", async () => {
    const owner = await createVerifiedUser(server, { label: "lm-owner" });
    const organization = await createOrganizationWithOwner(owner, "Listed members");
    for (const label of ["lm-1", "lm-2", "lm-3", "lm-4"])
      await addMember(owner, organization.id, await createVerifiedUser(server, { label }), "member");
    const path = `/api/auth/organization/list-members?organizationId=${organization.id}`;
    // Sorted, the read is better-auth's own: the same members, fields and total.
    const own = await owner.client.get(`${path}&sortBy=createdAt&sortDirection=asc`);
    const answered = await owner.client.get(path);
    expect([own.status, answered.status]).toEqual([200, 200]);
    expect(answered.data.total).toBe(5);
    expect(byId(answered.data)).toEqual(byId(own.data));
    const inOrder = [...answered.data.members].sort(
      (a: Listed["members"][0], b: Listed["members"][0]) =>
        a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
    );
    expect(answered.data.members).toEqual(inOrder);

    const pages = await Promise.all(
      ["limit=2&offset=0", "limit=2&offset=2", "limit=2&offset=4", "limit=2&offset=9"].map((page) =>
        owner.client.get(`${path}&${page}`),
      ),
    );
    expect(pages.map((page) => page.data.total)).toEqual([5, 5, 5, 5]);
    expect(pages.flatMap((page) => page.data.members)).toEqual(answered.data.members);
    // better-auth's reading of the fields: 0 is its default page of 100; the active organization when none is named.
    expect((await owner.client.get(`${path}&limit=0`)).data).toEqual(answered.data);
    expect((await owner.client.get("/api/auth/organization/list-members")).data).toEqual(answered.data);
    // A page it does not take goes on to better-auth, which answers it.
    const large = await owner.client.get(`${path}&limit=5000`);
    expect(byId(large.data)).toEqual(byId(answered.data));
    const sideways = await owner.client.get(`${path}&sortDirection=sideways`);
    await expectError(sideways, 400, '[query.sortDirection] Invalid option: expected one of "asc"|"desc"');
    const stranger = await createVerifiedUser(server, { label: "lm-stranger" });
    await expectError(await stranger.client.get(path), 403, "You are not a member of this organization");
  });
});

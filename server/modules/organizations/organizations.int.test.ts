import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  activeOrganizationOf,
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  listMails,
  signInOnNewClient,
  uniqueSlug,
  type TestUser,
} from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * The organization rules of the product spec (sections 3–8) through the HTTP API: exact statuses and the
 * spec's lower-case messages (better-auth's are rewritten by server/auth/spec-errors.ts).
 */

let server: TestApp;

beforeAll(async () => {
  server = await createTestApp();
});

afterAll(async () => {
  await server?.close();
});

async function organizationRow(id: string) {
  return server.db.selectFrom("organization").selectAll().where("id", "=", id).executeTakeFirst();
}

async function memberRow(organizationId: string, userId: string) {
  return server.db.selectFrom("member").selectAll().where("organizationId", "=", organizationId).where("userId", "=", userId).executeTakeFirst();
}

async function sessionsOf(userId: string) {
  return server.db.selectFrom("session").select(["token", "activeOrganizationId"]).where("userId", "=", userId).execute();
}

describe("roles and permissions (spec section 6)", () => {
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let multiRole: TestUser;
  let organizationId: string;

  beforeAll(async () => {
    [owner, admin, member, multiRole] = await Promise.all([
      createVerifiedUser(server, { label: "perm-owner" }),
      createVerifiedUser(server, { label: "perm-admin" }),
      createVerifiedUser(server, { label: "perm-member" }),
      createVerifiedUser(server, { label: "perm-multi" }),
    ]);
    organizationId = (await createOrganizationWithOwner(owner, "Permissions")).id;
    await addMember(owner, organizationId, admin, "admin");
    await addMember(owner, organizationId, member, "member");
    await addMember(owner, organizationId, multiRole, ["member", "admin"]);
  });

  const matrix: Array<[resource: string, action: string, owner: boolean, admin: boolean, member: boolean]> = [
    ["organization", "update", true, true, false],
    ["organization", "delete", true, false, false],
    ["member", "create", true, true, false],
    ["member", "update", true, true, false],
    ["member", "delete", true, true, false],
    ["invitation", "create", true, true, false],
    ["invitation", "cancel", true, true, false],
    ["team", "create", true, true, false],
    ["team", "update", true, true, false],
    ["team", "delete", true, true, false],
    ["billing", "manage", true, true, false],
  ];

  it.each(matrix)("%s:%s is granted to owner=%s, admin=%s, member=%s", async (resource, action, ownerMay, adminMay, memberMay) => {
    const check = (user: TestUser) => user.client.post("/api/auth/organization/has-permission", { permissions: { [resource]: [action] }, organizationId });
    const [asOwner, asAdmin, asMember] = await Promise.all([check(owner), check(admin), check(member)]);
    expect([asOwner.status, asAdmin.status, asMember.status]).toEqual([200, 200, 200]);
    expect([asOwner.data.success, asAdmin.data.success, asMember.data.success]).toEqual([ownerMay, adminMay, memberMay]);
  });

  it("passes when any of a member's comma-separated roles grants every requested action", async () => {
    expect((await memberRow(organizationId, multiRole.id))?.role).toBe("member,admin");
    const teamAndBilling = await multiRole.client.post("/api/auth/organization/has-permission", {
      permissions: { team: ["create", "update", "delete"], billing: ["manage"] },
      organizationId,
    });
    expect(teamAndBilling.data).toMatchObject({ success: true });
    const withDelete = await multiRole.client.post("/api/auth/organization/has-permission", {
      permissions: { organization: ["update", "delete"] },
      organizationId,
    });
    expect(withDelete.data).toMatchObject({ success: false });
  });

  it("fails a check that requests no permission", async () => {
    const empty = await owner.client.post("/api/auth/organization/has-permission", { permissions: {}, organizationId });
    expect(empty.data?.success === true).toBe(false);
    const emptyAction = await owner.client.post("/api/auth/organization/has-permission", { permissions: { team: [] }, organizationId });
    expect(emptyAction.data?.success === true).toBe(false);
  });

  it("lets an admin update but not delete the organization, and a member neither", async () => {
    const adminUpdate = await admin.client.post("/api/auth/organization/update", { organizationId, data: { name: "Renamed by admin" } });
    expect(adminUpdate.status).toBe(200);
    expect((await organizationRow(organizationId))?.name).toBe("Renamed by admin");

    await expectError(await admin.client.post("/api/auth/organization/delete", { organizationId }), 403, "not allowed to update or delete the organization");
    await expectError(
      await member.client.post("/api/auth/organization/update", { organizationId, data: { name: "Renamed by member" } }),
      403,
      "not allowed to update or delete the organization",
    );
    await expectError(await member.client.post("/api/auth/organization/delete", { organizationId }), 403, "not allowed to update or delete the organization");
    expect(await organizationRow(organizationId)).toMatchObject({ name: "Renamed by admin" });
  });

  it("refuses a plain member every member, invitation and team action", async () => {
    const other = await createVerifiedUser(server, { label: "perm-target" });
    await expectError(
      await member.client.post("/api/auth/organization/remove-member", { memberIdOrEmail: admin.email, organizationId }),
      401,
      "not allowed to delete this member",
    );
    const invite = await member.client.post("/api/auth/organization/invite-member", { email: other.email, role: "member", organizationId });
    expect(invite.status).toBe(403);
    const createTeam = await member.client.post("/api/auth/organization/create-team", { name: "Members only", organizationId });
    expect(createTeam.status).toBe(403);
    const memberRowOfAdmin = await memberRow(organizationId, admin.id);
    const promote = await member.client.post("/api/auth/organization/update-member-role", { memberId: memberRowOfAdmin!.id, role: "owner", organizationId });
    expect(promote.status).toBe(403);
    expect((await memberRow(organizationId, admin.id))?.role).toBe("admin");
    expect(await server.db.selectFrom("invitation").select("id").where("email", "=", other.email).execute()).toEqual([]);
  });
});

describe("creating an organization (spec sections 4, 5)", () => {
  let user: TestUser;

  beforeAll(async () => {
    user = await createVerifiedUser(server, { label: "creator" });
  });

  it("requires a name and a slug", async () => {
    const slug = uniqueSlug();
    const noName = await user.client.post("/api/auth/organization/create", { slug });
    expect(noName.status).toBe(400);
    const emptyName = await user.client.post("/api/auth/organization/create", { name: "", slug });
    expect(emptyName.status).toBe(400);
    const noSlug = await user.client.post("/api/auth/organization/create", { name: "No slug" });
    expect(noSlug.status).toBe(400);
    expect(await server.db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toEqual([]);
  });

  it("refuses a slug that exists: 400 'organization already exists'", async () => {
    const first = await createOrganizationWithOwner(user, "Taken");
    await expectError(await user.client.post("/api/auth/organization/create", { name: "Again", slug: first.slug }), 400, "organization already exists");
    expect(await server.db.selectFrom("organization").select("id").where("slug", "=", first.slug).execute()).toHaveLength(1);
  });

  it("answers check-slug with {status:true} or 400 'slug is taken'", async () => {
    const free = await user.client.post("/api/auth/organization/check-slug", { slug: uniqueSlug("free") });
    expect(free.status).toBe(200);
    expect(free.data).toEqual({ status: true });
    const existing = await createOrganizationWithOwner(user, "Checked");
    await expectError(await user.client.post("/api/auth/organization/check-slug", { slug: existing.slug }), 400, "slug is taken");
  });

  it("makes the creator the owner and the new organization active, unless keepCurrentActiveOrganization is set", async () => {
    const first = await createOrganizationWithOwner(user, "First active");
    expect(await activeOrganizationOf(user.client)).toBe(first.id);
    expect((await memberRow(first.id, user.id))?.role).toBe("owner");

    const kept = await user.client.post("/api/auth/organization/create", {
      name: "Background",
      slug: uniqueSlug("background"),
      keepCurrentActiveOrganization: true,
    });
    expect(kept.status).toBe(200);
    expect(await activeOrganizationOf(user.client)).toBe(first.id);

    const switched = await user.client.post("/api/auth/organization/create", { name: "Foreground", slug: uniqueSlug("foreground") });
    expect(switched.status).toBe(200);
    expect(await activeOrganizationOf(user.client)).toBe(switched.data.id);
  });

  it("creates the organization and its owner membership together: a failed membership leaves no organization", async () => {
    const victim = await createVerifiedUser(server, { label: "atomic" });
    // A trigger makes this user's membership insert fail after the organization row was written.
    await installFailingMemberInsert(victim.id);
    const slug = uniqueSlug("atomic");
    try {
      const response = await victim.client.post("/api/auth/organization/create", { name: "Half made", slug });
      expect(response.status).toBeGreaterThanOrEqual(500);
    } finally {
      await removeFailingMemberInsert();
    }
    expect(await server.db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toEqual([]);
    expect(await server.db.selectFrom("team").select("id").where("name", "=", "Half made").execute()).toEqual([]);
    expect(await server.db.selectFrom("member").select("id").where("userId", "=", victim.id).execute()).toEqual([]);
    // The same request succeeds once the database accepts the membership.
    const retry = await victim.client.post("/api/auth/organization/create", { name: "Half made", slug });
    expect(retry.status).toBe(200);
  });

  it("answers 401 'Unauthorized' without a session", async () => {
    const anonymous = createClient(server);
    const create = await anonymous.post("/api/auth/organization/create", { name: "Nobody", slug: uniqueSlug("nobody") });
    expect(create.status).toBe(401);
    await expectError(await anonymous.get("/api/auth/organization/list-teams"), 401, "Unauthorized");
    await expectError(await anonymous.get("/api/auth/organization/get-full-organization"), 401, "Unauthorized");
  });
});

describe("organization limits from configuration", () => {
  it("ORGANIZATION_LIMIT: 403 'reached the maximum number of organizations'", async () => {
    const limited = await createTestApp({ env: { ORGANIZATION_LIMIT: "2" } });
    try {
      const user = await createVerifiedUser(limited, { label: "limited" });
      await createOrganizationWithOwner(user, "One");
      await createOrganizationWithOwner(user, "Two");
      const slug = uniqueSlug("three");
      await expectError(await user.client.post("/api/auth/organization/create", { name: "Three", slug }), 403, "reached the maximum number of organizations");
      expect(await limited.db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it("ALLOW_ORGANIZATION_CREATION=nobody: 403 'not allowed to create a new organization'", async () => {
    const closed = await createTestApp({ env: { ALLOW_ORGANIZATION_CREATION: "nobody" } });
    try {
      const user = await createVerifiedUser(closed, { label: "closed" });
      const slug = uniqueSlug("closed");
      await expectError(await user.client.post("/api/auth/organization/create", { name: "Closed", slug }), 403, "not allowed to create a new organization");
      expect(await closed.db.selectFrom("organization").select("id").execute()).toEqual([]);
    } finally {
      await closed.close();
    }
  });

  it("ALLOW_ORGANIZATION_CREATION=admins: a platform admin may, anyone else gets 403", async () => {
    const adminEmail = `platform-admin-${Date.now()}@example.test`;
    const adminsOnly = await createTestApp({ env: { ALLOW_ORGANIZATION_CREATION: "admins", ADMIN_EMAILS: adminEmail } });
    try {
      const [user, platformAdmin] = await Promise.all([
        createVerifiedUser(adminsOnly, { label: "not-admin" }),
        createVerifiedUser(adminsOnly, { label: "admin", email: adminEmail }),
      ]);
      await expectError(
        await user.client.post("/api/auth/organization/create", { name: "Refused", slug: uniqueSlug("refused") }),
        403,
        "not allowed to create a new organization",
      );
      const allowed = await platformAdmin.client.post("/api/auth/organization/create", { name: "Allowed", slug: uniqueSlug("allowed") });
      expect(allowed.status).toBe(200);
    } finally {
      await adminsOnly.close();
    }
  });

  it("DISABLE_ORGANIZATION_DELETION=true: the owner's delete is refused and the organization remains", async () => {
    const undeletable = await createTestApp({ env: { DISABLE_ORGANIZATION_DELETION: "true" } });
    try {
      const owner = await createVerifiedUser(undeletable, { label: "undeletable" });
      const organization = await createOrganizationWithOwner(owner, "Forever");
      const response = await owner.client.post("/api/auth/organization/delete", { organizationId: organization.id });
      // better-auth 1.7 answers 404 ORGANIZATION_DELETION_DISABLED; the spec gives no status.
      expect(response.status).toBe(404);
      expect(response.data).toMatchObject({ code: "ORGANIZATION_DELETION_DISABLED" });
      expect(await undeletable.db.selectFrom("organization").select("id").where("id", "=", organization.id).execute()).toHaveLength(1);
    } finally {
      await undeletable.close();
    }
  });

  it("without that setting the owner deletes the organization", async () => {
    const owner = await createVerifiedUser(server, { label: "deleter" });
    const organization = await createOrganizationWithOwner(owner, "Short lived");
    const response = await owner.client.post("/api/auth/organization/delete", { organizationId: organization.id });
    expect(response.status).toBe(200);
    expect(await organizationRow(organization.id)).toBeUndefined();
  });
});

describe("members: removing and leaving (spec sections 4–6)", () => {
  it("the last owner can neither leave nor be removed: 400 'you cannot leave the organization as the only owner'", async () => {
    const owner = await createVerifiedUser(server, { label: "sole-owner" });
    const admin = await createVerifiedUser(server, { label: "sole-admin" });
    const organization = await createOrganizationWithOwner(owner, "Sole");
    await addMember(owner, organization.id, admin, "admin");
    const ownerMember = await memberRow(organization.id, owner.id);

    await expectError(
      await owner.client.post("/api/auth/organization/leave", { organizationId: organization.id }),
      400,
      "you cannot leave the organization as the only owner",
    );
    await expectError(
      await owner.client.post("/api/auth/organization/remove-member", { memberIdOrEmail: ownerMember!.id, organizationId: organization.id }),
      400,
      "you cannot leave the organization as the only owner",
    );
    expect(await memberRow(organization.id, owner.id)).toBeDefined();
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
      await admin.client.post("/api/auth/organization/remove-member", { memberIdOrEmail: secondOwner.email, organizationId: organization.id }),
      401,
      "not allowed to delete this member",
    );
    const secondOwnerMember = await memberRow(organization.id, secondOwner.id);
    expect(secondOwnerMember).toBeDefined();
    await expectError(
      await admin.client.post("/api/auth/organization/remove-member", { memberIdOrEmail: secondOwnerMember!.id, organizationId: organization.id }),
      401,
      "not allowed to delete this member",
    );
    expect(await memberRow(organization.id, secondOwner.id)).toBeDefined();

    await expectError(
      await member.client.post("/api/auth/organization/remove-member", { memberIdOrEmail: admin.email, organizationId: organization.id }),
      401,
      "not allowed to delete this member",
    );
    expect(await memberRow(organization.id, admin.id)).toBeDefined();

    // An admin may remove a plain member (by id)…
    const removed = await admin.client.post("/api/auth/organization/remove-member", { memberIdOrEmail: memberId, organizationId: organization.id });
    expect(removed.status).toBe(200);
    expect(removed.data.member).toMatchObject({ id: memberId, userId: member.id });
    expect(await memberRow(organization.id, member.id)).toBeUndefined();

    // …and an owner removes another owner (by e-mail: an identifier with '@' is an e-mail).
    const ownerRemoved = await owner.client.post("/api/auth/organization/remove-member", {
      memberIdOrEmail: secondOwner.email,
      organizationId: organization.id,
    });
    expect(ownerRemoved.status).toBe(200);
    expect(ownerRemoved.data.member).toMatchObject({ userId: secondOwner.id });
    expect(await memberRow(organization.id, secondOwner.id)).toBeUndefined();
  });

  it("answers 400 'member not found' for an unknown member id or e-mail", async () => {
    const owner = await createVerifiedUser(server, { label: "mnf-owner" });
    const organization = await createOrganizationWithOwner(owner, "Missing member");
    await expectError(
      await owner.client.post("/api/auth/organization/remove-member", { memberIdOrEmail: "no-such-member", organizationId: organization.id }),
      400,
      "member not found",
    );
    await expectError(
      await owner.client.post("/api/auth/organization/remove-member", { memberIdOrEmail: "nobody@example.test", organizationId: organization.id }),
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
      expect((await client.post("/api/auth/organization/set-active", { organizationId: organization.id })).status).toBe(200);
    }
    expect((await sessionsOf(member.id)).map((session) => session.activeOrganizationId)).toEqual([organization.id, organization.id]);

    const removed = await owner.client.post("/api/auth/organization/remove-member", { memberIdOrEmail: member.email, organizationId: organization.id });
    expect(removed.status).toBe(200);

    expect((await sessionsOf(member.id)).map((session) => session.activeOrganizationId)).toEqual([null, null]);
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
    expect((await member.client.post("/api/auth/organization/set-active", { organizationId: organization.id })).status).toBe(200);
    expect((await secondSession.post("/api/auth/organization/set-active", { organizationId: organization.id })).status).toBe(200);
    expect((await thirdSession.post("/api/auth/organization/set-active", { organizationId: otherOrganization.id })).status).toBe(200);

    const left = await member.client.post("/api/auth/organization/leave", { organizationId: organization.id });
    expect(left.status).toBe(200);

    expect(await activeOrganizationOf(member.client)).toBeNull();
    expect(await activeOrganizationOf(secondSession)).toBeNull();
    expect(await activeOrganizationOf(thirdSession)).toBe(otherOrganization.id);
    expect(await memberRow(organization.id, member.id)).toBeUndefined();
  });

  it("answers 400 'user is not a member of the organization' and 400 'organization not found'", async () => {
    const owner = await createVerifiedUser(server, { label: "nm-owner" });
    const stranger = await createVerifiedUser(server, { label: "nm-stranger" });
    const organization = await createOrganizationWithOwner(owner, "Members only");
    await expectError(
      await stranger.client.post("/api/auth/organization/update", { organizationId: organization.id, data: { name: "Hijacked" } }),
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
    expect((await organizationRow(organization.id))?.name).toBe("Members only");
  });

  it("answers 400 'no active organization' when none is given or active", async () => {
    const user = await createVerifiedUser(server, { label: "no-active" });
    await expectError(await user.client.post("/api/auth/organization/create-team", { name: "Floating" }), 400, "no active organization");
    await expectError(await user.client.get("/api/auth/organization/list-teams"), 400, "no active organization");
  });
});

describe("GET /api/organizations/:organizationId/members", () => {
  it("lists members with their user and teams, searched and paged, to members only", async () => {
    const owner = await createVerifiedUser(server, { label: "list-owner" });
    const organization = await createOrganizationWithOwner(owner, "Listing");
    const [alice, bob] = await Promise.all([createVerifiedUser(server, { label: "alice-zebra" }), createVerifiedUser(server, { label: "bob-yak" })]);
    await addMember(owner, organization.id, alice, "admin");
    await addMember(owner, organization.id, bob, "member");
    const path = `/api/organizations/${organization.id}/members`;

    const all = await bob.client.get(path);
    expect(all.status).toBe(200);
    expect(all.data).toMatchObject({ total: 3, limit: 20, offset: 0 });
    const byUser = new Map(
      (all.data.members as Array<{ userId: string; role: string; user: { email: string }; teams: Array<{ id: string }> }>).map((member) => [
        member.userId,
        member,
      ]),
    );
    expect(byUser.get(owner.id)).toMatchObject({ role: "owner", user: { email: owner.email }, teams: [{ id: organization.defaultTeamId }] });
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
    const pagedIds = [...firstPage.data.members, ...secondPage.data.members].map((member: { userId: string }) => member.userId).sort();
    expect(pagedIds).toEqual([owner.id, alice.id, bob.id].sort());

    expect((await bob.client.get(`${path}?limit=0`)).status).toBe(400);
    // A second owner, holding it in a list of roles, counts too.
    const carol = await createVerifiedUser(server, { label: "carol-owner" });
    await addMember(owner, organization.id, carol, ["member", "owner"]);
    expect((await bob.client.get(`${path}?search=ZEBRA`)).data).toMatchObject({ total: 1, ownerCount: 2 });
    await expectError(await createClient(server).get(path), 401, "Unauthorized");
  });
});

describe("teams (spec sections 3, 5, 6)", () => {
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let organizationId: string;
  let defaultTeamId: string;

  beforeAll(async () => {
    [owner, admin, member] = await Promise.all([
      createVerifiedUser(server, { label: "team-owner" }),
      createVerifiedUser(server, { label: "team-admin" }),
      createVerifiedUser(server, { label: "team-member" }),
    ]);
    const organization = await createOrganizationWithOwner(owner, "Teams");
    organizationId = organization.id;
    defaultTeamId = organization.defaultTeamId;
    await addMember(owner, organizationId, admin, "admin");
    await addMember(owner, organizationId, member, "member");
  });

  async function createTeam(name: string) {
    const response = await owner.client.post("/api/auth/organization/create-team", { name, organizationId });
    expect(response.status).toBe(200);
    return response.data.id as string;
  }

  it("refuses a team name shorter than 1 character with 400, on create and on update", async () => {
    const before = await server.db.selectFrom("team").select("id").where("organizationId", "=", organizationId).execute();
    const created = await owner.client.post("/api/auth/organization/create-team", { name: "", organizationId });
    expect(created.status).toBe(400);
    const blank = await owner.client.post("/api/auth/organization/create-team", { name: "   ", organizationId });
    expect(blank.status).toBe(400);
    expect(await server.db.selectFrom("team").select("id").where("organizationId", "=", organizationId).execute()).toHaveLength(before.length);

    const updated = await owner.client.post("/api/auth/organization/update-team", { teamId: defaultTeamId, data: { name: "" }, organizationId });
    expect(updated.status).toBe(400);
    expect((await server.db.selectFrom("team").select("name").where("id", "=", defaultTeamId).executeTakeFirst())?.name).toBe("Teams");
  });

  it("lets an admin update and delete teams", async () => {
    const teamId = await createTeam("Renamable");
    const renamed = await admin.client.post("/api/auth/organization/update-team", { teamId, data: { name: "Renamed", organizationId } });
    expect(renamed.status).toBe(200);
    expect(renamed.data).toMatchObject({ id: teamId, name: "Renamed" });
    const removed = await admin.client.post("/api/auth/organization/remove-team", { teamId, organizationId });
    expect(removed.status).toBe(200);
    expect(await server.db.selectFrom("team").select("id").where("id", "=", teamId).execute()).toEqual([]);
  });

  it("a member cannot delete a team they belong to: 403 'not allowed to delete or update teams'", async () => {
    const teamId = await createTeam("Admin's own");
    const added = await owner.client.post("/api/auth/organization/add-team-member", { teamId, userId: admin.id, organizationId });
    expect(added.status).toBe(200);
    await expectError(await admin.client.post("/api/auth/organization/remove-team", { teamId, organizationId }), 403, "not allowed to delete or update teams");
    expect(await server.db.selectFrom("team").select("id").where("id", "=", teamId).execute()).toHaveLength(1);
  });

  it("a plain member may neither update nor delete teams: 403 'not allowed to delete or update teams'", async () => {
    const teamId = await createTeam("Guarded");
    await expectError(
      await member.client.post("/api/auth/organization/update-team", { teamId, data: { name: "Taken over", organizationId } }),
      403,
      "not allowed to delete or update teams",
    );
    await expectError(await member.client.post("/api/auth/organization/remove-team", { teamId, organizationId }), 403, "not allowed to delete or update teams");
    expect(await server.db.selectFrom("team").select("name").where("id", "=", teamId).executeTakeFirst()).toEqual({ name: "Guarded" });
  });

  it("answers 400 'team not found' for an unknown team", async () => {
    await expectError(
      await owner.client.post("/api/auth/organization/update-team", { teamId: "no-such-team", data: { name: "X", organizationId } }),
      400,
      "team not found",
    );
    await expectError(await owner.client.post("/api/auth/organization/remove-team", { teamId: "no-such-team", organizationId }), 400, "team not found");
  });

  it("the last team cannot be removed: 400 'unable to remove the last team'", async () => {
    const soloOwner = await createVerifiedUser(server, { label: "last-team" });
    const organization = await createOrganizationWithOwner(soloOwner, "Single team");
    // better-auth made the default team the creator's active team, and refuses to delete the active team
    // with a 403 before it looks at the team count; unset it to reach the last-team rule.
    expect((await soloOwner.client.post("/api/auth/organization/set-active-team", { teamId: null })).status).toBe(200);
    await expectError(
      await soloOwner.client.post("/api/auth/organization/remove-team", { teamId: organization.defaultTeamId, organizationId: organization.id }),
      400,
      "unable to remove the last team",
    );
    expect(await server.db.selectFrom("team").select("id").where("organizationId", "=", organization.id).execute()).toHaveLength(1);
  });

  it("the default team is named after the organization and follows its renames; a team with a name of its own keeps it", async () => {
    const renamer = await createVerifiedUser(server, { label: "renamer" });
    const organization = await createOrganizationWithOwner(renamer, "Northwind");
    const created = await renamer.client.post("/api/auth/organization/create-team", { name: "Design", organizationId: organization.id });
    expect(created.status).toBe(200);
    const teamNames = async () =>
      (await server.db.selectFrom("team").select(["id", "name"]).where("organizationId", "=", organization.id).orderBy("name").execute()).map((team) => [
        team.id === organization.defaultTeamId ? "default" : "own",
        team.name,
      ]);
    expect(await teamNames()).toEqual([
      ["own", "Design"],
      ["default", "Northwind"],
    ]);

    const renamed = await renamer.client.post("/api/auth/organization/update", { organizationId: organization.id, data: { name: "Northwind Traders" } });
    expect(renamed.status).toBe(200);
    expect(await teamNames()).toEqual([
      ["own", "Design"],
      ["default", "Northwind Traders"],
    ]);

    // Renamed by hand, the default team keeps its own name from then on.
    const own = await renamer.client.post("/api/auth/organization/update-team", {
      teamId: organization.defaultTeamId,
      data: { name: "Everyone", organizationId: organization.id },
    });
    expect(own.status).toBe(200);
    expect((await renamer.client.post("/api/auth/organization/update", { organizationId: organization.id, data: { name: "Northwind" } })).status).toBe(200);
    expect(await teamNames()).toEqual([
      ["own", "Design"],
      ["default", "Everyone"],
    ]);
  });

  it("a refused rename leaves the default team's name alone", async () => {
    const owner = await createVerifiedUser(server, { label: "rename-guard" });
    const organization = await createOrganizationWithOwner(owner, "Guarded name");
    await addMember(owner, organization.id, member, "member");
    await expectError(
      await member.client.post("/api/auth/organization/update", { organizationId: organization.id, data: { name: "Hijacked" } }),
      403,
      "not allowed to update or delete the organization",
    );
    expect(await server.db.selectFrom("team").select("name").where("id", "=", organization.defaultTeamId).executeTakeFirst()).toEqual({ name: "Guarded name" });
  });

  it("listing teams requires membership in the organization", async () => {
    const listed = await member.client.get(`/api/auth/organization/list-teams?organizationId=${organizationId}`);
    expect(listed.status).toBe(200);
    expect((listed.data as Array<{ id: string }>).map((team) => team.id)).toContain(defaultTeamId);

    const stranger = await createVerifiedUser(server, { label: "team-stranger" });
    const refused = await stranger.client.get(`/api/auth/organization/list-teams?organizationId=${organizationId}`);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.data)).not.toContain(defaultTeamId);
  });
});

describe("invitations (spec sections 3, 4)", () => {
  let owner: TestUser;
  let organizationId: string;

  beforeAll(async () => {
    owner = await createVerifiedUser(server, { label: "inv-owner" });
    organizationId = (await createOrganizationWithOwner(owner, "Inviting")).id;
  });

  async function invite(email: string, extra: Record<string, unknown> = {}) {
    return owner.client.post("/api/auth/organization/invite-member", { email, role: "member", organizationId, ...extra });
  }

  async function mailsTo(email: string) {
    // Sign-up mailed a verification link too; only the invitations matter here.
    return (await listMails(server, email)).filter((mail) => mail.subject.includes("invited you"));
  }

  async function setExpiresAt(id: string, expiresAt: Date) {
    const value = server.dialect === "postgres" ? expiresAt : expiresAt.toISOString();
    await server.db.updateTable("invitation").set({ expiresAt: value }).where("id", "=", id).execute();
  }

  async function invitationRow(id: string) {
    return server.db.selectFrom("invitation").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  }

  it("lasts two days, starts pending, and mails a link to /invitations/<id> on the app's base URL", async () => {
    const invitee = await createVerifiedUser(server, { label: "invitee" });
    const before = Date.now();
    const response = await invite(invitee.email);
    expect(response.status).toBe(200);
    expect(response.data.status).toBe("pending");
    const expiresAt = new Date(response.data.expiresAt).getTime();
    const twoDays = 48 * 60 * 60 * 1000;
    expect(expiresAt).toBeGreaterThanOrEqual(before + twoDays - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + twoDays + 1000);

    const mails = await mailsTo(invitee.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`${server.config.baseUrl}/invitations/${response.data.id}`);
  });

  it("accepting makes the invitee a member with the invited role and marks the invitation accepted", async () => {
    const invitee = await createVerifiedUser(server, { label: "acceptor" });
    const invitation = await invite(invitee.email, { role: "admin" });
    const accepted = await invitee.client.post("/api/auth/organization/accept-invitation", { invitationId: invitation.data.id });
    expect(accepted.status).toBe(200);
    expect((await invitationRow(invitation.data.id)).status).toBe("accepted");
    expect((await memberRow(organizationId, invitee.id))?.role).toBe("admin");
    expect(await activeOrganizationOf(invitee.client)).toBe(organizationId);
  });

  it("only the invited e-mail may accept, and only when verified", async () => {
    const invitee = await createVerifiedUser(server, { label: "rightful" });
    const intruder = await createVerifiedUser(server, { label: "intruder" });
    const invitation = await invite(invitee.email);

    const byIntruder = await intruder.client.post("/api/auth/organization/accept-invitation", { invitationId: invitation.data.id });
    expect(byIntruder.status).toBe(403);
    expect(await memberRow(organizationId, intruder.id)).toBeUndefined();
    expect((await invitationRow(invitation.data.id)).status).toBe("pending");

    // The invitee's address stops being verified (e.g. after an e-mail change): no accepting until verified again.
    await server.db
      .updateTable("user")
      .set({ emailVerified: server.dialect === "postgres" ? false : 0 })
      .where("id", "=", invitee.id)
      .execute();
    const unverified = await invitee.client.post("/api/auth/organization/accept-invitation", { invitationId: invitation.data.id });
    expect(unverified.status).toBe(403);
    expect(await memberRow(organizationId, invitee.id)).toBeUndefined();
    expect((await invitationRow(invitation.data.id)).status).toBe("pending");

    await server.db
      .updateTable("user")
      .set({ emailVerified: server.dialect === "postgres" ? true : 1 })
      .where("id", "=", invitee.id)
      .execute();
    const accepted = await invitee.client.post("/api/auth/organization/accept-invitation", { invitationId: invitation.data.id });
    expect(accepted.status).toBe(200);
  });

  it("rejecting and canceling set the statuses rejected and canceled", async () => {
    const [rejecter, canceled] = await Promise.all([createVerifiedUser(server, { label: "rejecter" }), createVerifiedUser(server, { label: "canceled" })]);
    const toReject = await invite(rejecter.email);
    const rejected = await rejecter.client.post("/api/auth/organization/reject-invitation", { invitationId: toReject.data.id });
    expect(rejected.status).toBe(200);
    expect((await invitationRow(toReject.data.id)).status).toBe("rejected");
    expect(await memberRow(organizationId, rejecter.id)).toBeUndefined();

    const toCancel = await invite(canceled.email);
    const cancel = await owner.client.post("/api/auth/organization/cancel-invitation", { invitationId: toCancel.data.id });
    expect(cancel.status).toBe(200);
    expect((await invitationRow(toCancel.data.id)).status).toBe("canceled");
    const late = await canceled.client.post("/api/auth/organization/accept-invitation", { invitationId: toCancel.data.id });
    expect(late.status).toBe(400);
    expect(await memberRow(organizationId, canceled.id)).toBeUndefined();
  });

  it("previews a link to anyone, signed out too: state, organization and inviter, and nothing else; 404 for an unknown id", async () => {
    const anonymous = createClient(server);
    const invitee = await createVerifiedUser(server, { label: "previewed" });
    const invitation = await invite(invitee.email);
    const preview = await anonymous.get(`/api/invitations/${invitation.data.id}`);
    expect(preview.status).toBe(200);
    expect(preview.data).toEqual({ state: "pending", organizationName: "Inviting", inviterName: owner.name });

    await setExpiresAt(invitation.data.id, new Date(Date.now() - 1000));
    expect((await anonymous.get(`/api/invitations/${invitation.data.id}`)).data).toEqual({
      state: "expired",
      organizationName: "Inviting",
      inviterName: owner.name,
    });

    const toCancel = await invite(`canceled-${invitee.email}`);
    expect((await owner.client.post("/api/auth/organization/cancel-invitation", { invitationId: toCancel.data.id })).status).toBe(200);
    expect((await anonymous.get(`/api/invitations/${toCancel.data.id}`)).data).toEqual({
      state: "canceled",
      organizationName: "Inviting",
      inviterName: owner.name,
    });

    const unknown = await anonymous.get("/api/invitations/no-such-invitation");
    expect(unknown.status).toBe(404);
    expect(unknown.data).toEqual({ code: "NOT_FOUND", message: "invitation not found", requestId: expect.any(String) });
  });

  it("keeps one pending invitation per e-mail: a re-invite is 400, resend renews it and mails again", async () => {
    const invitee = await createVerifiedUser(server, { label: "reinvited" });
    const first = await invite(invitee.email);
    expect(first.status).toBe(200);
    expect(await mailsTo(invitee.email)).toHaveLength(1);

    const again = await invite(invitee.email);
    expect(again.status).toBe(400);
    expect(await server.db.selectFrom("invitation").select("id").where("email", "=", invitee.email).execute()).toHaveLength(1);

    // Age the invitation (one hour left), so the renewal is visible without waiting.
    await setExpiresAt(first.data.id, new Date(Date.now() + 60 * 60 * 1000));
    const before = Date.now();
    const resent = await invite(invitee.email, { resend: true });
    expect(resent.status).toBe(200);
    const rows = await server.db.selectFrom("invitation").select(["id", "status", "expiresAt"]).where("email", "=", invitee.email).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.data.id, status: "pending" });
    expect(new Date(rows[0]!.expiresAt as string | Date).getTime()).toBeGreaterThanOrEqual(before + 48 * 60 * 60 * 1000 - 1000);

    const mails = await mailsTo(invitee.email);
    expect(mails).toHaveLength(2);
    expect(mails.every((mail) => mail.text.includes(`/invitations/${first.data.id}`))).toBe(true);
  });

  it("re-inviting after the pending invitation expired creates a new one and closes the expired one", async () => {
    const invitee = await createVerifiedUser(server, { label: "expired" });
    const first = await invite(invitee.email);
    await setExpiresAt(first.data.id, new Date(Date.now() - 60 * 1000));
    const expiredAccept = await invitee.client.post("/api/auth/organization/accept-invitation", { invitationId: first.data.id });
    expect(expiredAccept.status).toBe(400);

    const second = await invite(invitee.email);
    expect(second.status).toBe(200);
    expect(second.data.id).not.toBe(first.data.id);
    expect((await invitationRow(first.data.id)).status).toBe("canceled");
    const accepted = await invitee.client.post("/api/auth/organization/accept-invitation", { invitationId: second.data.id });
    expect(accepted.status).toBe(200);
  });

  it("accepting is atomic: when the membership cannot be written the invitation stays pending and no team membership remains", async () => {
    const invitee = await createVerifiedUser(server, { label: "atomic-invitee" });
    const teamResponse = await owner.client.post("/api/auth/organization/create-team", { name: "Atomic team", organizationId });
    expect(teamResponse.status).toBe(200);
    const invitation = await invite(invitee.email, { teamId: teamResponse.data.id });
    expect(invitation.status).toBe(200);

    await installFailingMemberInsert(invitee.id);
    try {
      const accepted = await invitee.client.post("/api/auth/organization/accept-invitation", { invitationId: invitation.data.id });
      expect(accepted.status).toBeGreaterThanOrEqual(500);
    } finally {
      await removeFailingMemberInsert();
    }
    expect((await invitationRow(invitation.data.id)).status).toBe("pending");
    expect(await memberRow(organizationId, invitee.id)).toBeUndefined();
    expect(await server.db.selectFrom("teamMember").select("id").where("userId", "=", invitee.id).execute()).toEqual([]);

    const retried = await invitee.client.post("/api/auth/organization/accept-invitation", { invitationId: invitation.data.id });
    expect(retried.status).toBe(200);
    expect(await server.db.selectFrom("teamMember").select("teamId").where("userId", "=", invitee.id).execute()).toEqual([{ teamId: teamResponse.data.id }]);
  });
});

describe("organization metadata (a map or a JSON string, at most 16 KB and 10 levels)", () => {
  let owner: TestUser;

  beforeAll(async () => {
    owner = await createVerifiedUser(server, { label: "meta-owner" });
  });

  function nested(levels: number): Record<string, unknown> {
    let value: Record<string, unknown> = { leaf: true };
    for (let level = 1; level < levels; level += 1) value = { child: value };
    return value;
  }

  async function storedMetadata(slug: string) {
    const row = await server.db.selectFrom("organization").select("metadata").where("slug", "=", slug).executeTakeFirstOrThrow();
    return JSON.parse(row.metadata as string) as unknown;
  }

  it("accepts a map and a JSON string, storing the same map", async () => {
    const slugMap = uniqueSlug("meta-map");
    const asMap = await owner.client.post("/api/auth/organization/create", { name: "Map", slug: slugMap, metadata: { plan: "pro", depth: nested(9) } });
    expect(asMap.status).toBe(200);
    expect(await storedMetadata(slugMap)).toEqual({ plan: "pro", depth: nested(9) });

    const slugString = uniqueSlug("meta-string");
    const asString = await owner.client.post("/api/auth/organization/create", { name: "String", slug: slugString, metadata: JSON.stringify({ plan: "team" }) });
    expect(asString.status).toBe(200);
    expect(await storedMetadata(slugString)).toEqual({ plan: "team" });

    const updated = await owner.client.post("/api/auth/organization/update", {
      organizationId: asString.data.id,
      data: { metadata: JSON.stringify({ plan: "enterprise" }) },
    });
    expect(updated.status).toBe(200);
    expect(await storedMetadata(slugString)).toEqual({ plan: "enterprise" });
  });

  it.each([
    ["a map over 16 KB", { blob: "x".repeat(16 * 1024) }, "metadata may be at most 16 KB"],
    ["a JSON string over 16 KB", JSON.stringify({ blob: "x".repeat(16 * 1024) }), "metadata may be at most 16 KB"],
    ["a map deeper than 10 levels", nested(11), "metadata may be nested at most 10 levels deep"],
    ["a JSON string deeper than 10 levels", JSON.stringify(nested(11)), "metadata may be nested at most 10 levels deep"],
    ["a JSON string with a __proto__ key", '{"__proto__":{"polluted":true}}', 'metadata may not contain the key "__proto__"'],
    ["a nested __proto__ key", '{"safe":{"__proto__":{"polluted":true}}}', 'metadata may not contain the key "__proto__"'],
    ["a string that is not JSON", "{not json", "metadata is not valid JSON"],
  ])("refuses %s with 400 and a clear message, on create and on update", async (_label, metadata, message) => {
    const slug = uniqueSlug("meta-bad");
    await expectError(await owner.client.post("/api/auth/organization/create", { name: "Bad metadata", slug, metadata }), 400, message);
    expect(await server.db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toEqual([]);

    const organization = await createOrganizationWithOwner(owner, "Good metadata");
    await expectError(await owner.client.post("/api/auth/organization/update", { organizationId: organization.id, data: { metadata } }), 400, message);
    expect((await organizationRow(organization.id))?.metadata ?? null).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a raw __proto__ key in the request body with 400, never 5xx", async () => {
    const slug = uniqueSlug("meta-proto");
    // Sent as raw text: a JavaScript object literal would turn the __proto__ key into a prototype, not a key.
    const response = await owner.client.request("/api/auth/organization/create", {
      method: "POST",
      json: `{"name":"Proto","slug":"${slug}","metadata":{"__proto__":{"polluted":true}}}`,
    });
    await expectError(response, 400, 'metadata may not contain the key "__proto__"');
    expect(await server.db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

/** Makes inserting a membership for this user fail inside the database, as a constraint or outage would. */
async function installFailingMemberInsert(userId: string) {
  if (server.dialect === "postgres") {
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION fail_member_insert() RETURNS trigger AS $$
         BEGIN RAISE EXCEPTION 'member insert refused for the test'; END; $$ LANGUAGE plpgsql`,
      )
      .execute(server.db);
    await sql
      .raw(`CREATE TRIGGER fail_member_insert BEFORE INSERT ON "member" FOR EACH ROW WHEN (NEW."userId" = '${userId}') EXECUTE FUNCTION fail_member_insert()`)
      .execute(server.db);
  } else {
    await sql
      .raw(
        `CREATE TRIGGER fail_member_insert BEFORE INSERT ON "member" WHEN NEW."userId" = '${userId}' BEGIN SELECT RAISE(ABORT, 'member insert refused for the test'); END`,
      )
      .execute(server.db);
  }
}

async function removeFailingMemberInsert() {
  await sql
    .raw(server.dialect === "postgres" ? `DROP TRIGGER IF EXISTS fail_member_insert ON "member"` : `DROP TRIGGER IF EXISTS fail_member_insert`)
    .execute(server.db);
}

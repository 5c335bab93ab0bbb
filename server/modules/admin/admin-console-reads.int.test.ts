import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, setRoleAs, startAdminApp, stopAdminApp } from "../../test/admin-harness";
import { locationOf, signInWithDevProvider } from "../../test/dev-identity";
import { addMember, buildUser, type CreatedOrganization, createOrganizationWithOwner } from "../../test/factories";
import { createVerifiedUser, signUp, type TestUser, type UserInput } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * The platform-admin feature over HTTP: the console's own reads at /api/admin (users, a user, organizations).
 */

let app: TestApp;
/** A user whose id is in ADMIN_USER_IDS; their role stays "user". */
let configured: TestUser;
/** A user with the platform role "admin". */
let admin: TestUser;
/** A user with the platform role "user". */
let plain: TestUser;
/** The user the refused calls name, owner of `organization`. */
let target: TestUser;
let organization: CreatedOrganization;

beforeAll(async () => {
  ({ app, configured, admin, plain, target, organization } = await startAdminApp());
});

afterAll(stopAdminApp);

describe("the console's reads", () => {
  /** A word in the names of the users made here and nobody else's, so the lists can be read without the others. */
  const batch = `Batch${randomBytes(4).toString("hex")}`;
  const word = () => randomBytes(5).toString("hex");
  /** Name, e-mail and username each made of a word of their own, so a search for one finds the user by that column alone. */
  const parts = { name: `${batch} Zed ${word()}`, email: `${word()}@example.test`, username: `u_${word()}` };
  let found: TestUser;
  let unverified: { userId: string; input: UserInput };
  let banned: TestUser;
  let promoted: TestUser;
  let banShown: TestUser;
  let detailed: TestUser;
  let owner: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    [found, banned, promoted, banShown, detailed, owner, member, unverified] = await Promise.all([
      createVerifiedUser(app, parts),
      createVerifiedUser(app, { label: `${batch} Banned` }),
      createVerifiedUser(app, { label: `${batch} Admin` }),
      createVerifiedUser(app, { label: "Ban Shown" }),
      createVerifiedUser(app, { label: "Detailed" }),
      createVerifiedUser(app, { label: "Org Owner" }),
      createVerifiedUser(app, { label: "Org Member" }),
      signUp(app, buildUser({ label: `${batch} Unverified` })),
    ]);
    await setRoleAs(configured, promoted.id, "admin");
    expect(
      (await admin.client.post(`${ADMIN}/ban-user`, { userId: banned.id, banReason: "Spam", banExpiresIn: 3600 }))
        .status,
    ).toBe(200);
  });

  const listUsers = async (query: Record<string, string>) => {
    const response = await admin.client.get(`/api/admin/users?${new URLSearchParams(query).toString()}`);
    expect(response.status).toBe(200);
    return response.data as {
      users: Array<Record<string, unknown> & { id: string }>;
      total: number;
      limit: number;
      offset: number;
    };
  };
  const idsOf = (list: { users: Array<{ id: string }> }) => list.users.map((user) => user.id).sort();

  it("GET /api/admin/users finds a user by part of the name, of the e-mail and of the username, in any case", async () => {
    const nameWord = parts.name.split(" ").at(-1)!;
    for (const q of [nameWord.slice(1, 8), parts.email.slice(1, 8).toUpperCase(), parts.username.slice(2, 9)]) {
      const list = await listUsers({ q });
      expect({ q, ids: idsOf(list), total: list.total }).toEqual({ q, ids: [found.id], total: 1 });
    }
    expect((await listUsers({ q: found.email })).users).toEqual([
      {
        id: found.id,
        name: parts.name,
        email: parts.email,
        username: parts.username,
        image: null,
        role: "user",
        isPlatformAdmin: false,
        emailVerified: true,
        banned: false,
        banReason: null,
        banExpires: null,
        createdAt: expect.any(String),
      },
    ]);
  });

  it("GET /api/admin/users filters by role, status and verified e-mail", async () => {
    expect(idsOf(await listUsers({ q: batch }))).toEqual([found.id, banned.id, promoted.id, unverified.userId].sort());
    expect(idsOf(await listUsers({ q: batch, role: "admin" }))).toEqual([promoted.id]);
    expect(idsOf(await listUsers({ q: batch, role: "user" }))).toEqual([found.id, banned.id, unverified.userId].sort());
    expect(idsOf(await listUsers({ q: batch, status: "banned" }))).toEqual([banned.id]);
    expect(idsOf(await listUsers({ q: batch, status: "active" }))).toEqual(
      [found.id, promoted.id, unverified.userId].sort(),
    );
    expect(idsOf(await listUsers({ q: batch, verified: "no" }))).toEqual([unverified.userId]);
    expect(idsOf(await listUsers({ q: batch, verified: "yes" }))).toEqual([found.id, banned.id, promoted.id].sort());
  });

  it("GET /api/admin/users shows banned: true only while the ban is in force", async () => {
    const ban = await admin.client.post(`${ADMIN}/ban-user`, {
      userId: banShown.id,
      banReason: "Abuse",
      banExpiresIn: 3600,
    });
    const expires = new Date(ban.data.user.banExpires as string).toISOString();
    expect((await listUsers({ q: banShown.email })).users[0]).toMatchObject({
      id: banShown.id,
      banned: true,
      banReason: "Abuse",
      banExpires: expires,
    });
    expect(idsOf(await listUsers({ q: banShown.email, status: "banned" }))).toEqual([banShown.id]);

    await app.db
      .updateTable("user")
      .set({ banExpires: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", banShown.id)
      .execute();
    expect((await listUsers({ q: banShown.email })).users[0]).toMatchObject({
      id: banShown.id,
      banned: false,
      banReason: null,
      banExpires: null,
    });
    expect(idsOf(await listUsers({ q: banShown.email, status: "banned" }))).toEqual([]);
    expect(idsOf(await listUsers({ q: banShown.email, status: "active" }))).toEqual([banShown.id]);
  });

  it("GET /api/admin/users marks platform admins: the admin role and a configured administrator id", async () => {
    expect((await listUsers({ q: promoted.email })).users[0]).toMatchObject({
      id: promoted.id,
      role: "admin",
      isPlatformAdmin: true,
    });
    expect((await listUsers({ q: configured.email })).users[0]).toMatchObject({
      id: configured.id,
      role: "user",
      isPlatformAdmin: true,
    });
    expect((await listUsers({ q: plain.email })).users[0]).toMatchObject({
      id: plain.id,
      role: "user",
      isPlatformAdmin: false,
    });
  });

  it("GET /api/admin/users refuses a page size it does not offer: 400 VALIDATION_ERROR", async () => {
    const body = await expectError(
      await admin.client.get("/api/admin/users?limit=7"),
      400,
      "limit: Use a page size of 10, 25, 50, 100",
    );
    expect(body.code).toBe("VALIDATION_ERROR");
  });

  it("GET /api/admin/users/:userId shows the sign-in methods (credential, then dev once linked) and the organizations with their roles", async () => {
    const own = await createOrganizationWithOwner(detailed, "Zulu Works");
    await addMember(target, organization.id, detailed, "admin");

    const before = await admin.client.get(`/api/admin/users/${detailed.id}`);
    expect(before.status).toBe(200);
    expect(before.data.user).toMatchObject({
      id: detailed.id,
      email: detailed.email,
      username: detailed.username,
      displayUsername: detailed.username,
      role: "user",
      isPlatformAdmin: false,
    });
    expect(before.data.signInMethods).toEqual([
      { providerId: "credential", email: null, createdAt: expect.any(String) },
    ]);
    expect(before.data.organizations).toEqual([
      { id: organization.id, name: "Target Org", slug: organization.slug, role: "admin", joinedAt: expect.any(String) },
      { id: own.id, name: "Zulu Works", slug: own.slug, role: "owner", joinedAt: expect.any(String) },
    ]);

    // The provider vouches for the account's verified e-mail: the identity links to the account.
    expect(
      locationOf(
        await signInWithDevProvider(createClient(app), {
          name: detailed.name,
          email: detailed.email,
          emailVerified: true,
        }),
      ),
    ).toBe("/");
    const after = await admin.client.get(`/api/admin/users/${detailed.id}`);
    expect(
      after.data.signInMethods.map((method: { providerId: string; email: string | null }) => [
        method.providerId,
        method.email,
      ]),
    ).toEqual([
      ["credential", null],
      ["dev", detailed.email],
    ]);
  });

  it("GET /api/admin/users/:userId answers 404 'user not found' for an unknown id", async () => {
    const body = await expectError(await admin.client.get("/api/admin/users/no-such-user"), 404, "user not found");
    expect(body.code).toBe("NOT_FOUND");
  });

  describe("organizations", () => {
    let created: CreatedOrganization;
    let helpdeskId: string;
    let invitationId: string;
    const invitedEmail = buildUser().email;

    beforeAll(async () => {
      created = await createOrganizationWithOwner(owner, "Detailed Org");
      await addMember(owner, created.id, member, "member");
      const team = await owner.client.post("/api/auth/organization/create-team", {
        name: "Helpdesk",
        organizationId: created.id,
      });
      expect(team.status).toBe(200);
      helpdeskId = team.data.id;
      for (const user of [owner, member]) {
        const added = await owner.client.post("/api/auth/organization/add-team-member", {
          teamId: helpdeskId,
          userId: user.id,
          organizationId: created.id,
        });
        expect(added.status).toBe(200);
      }
      const invitation = await owner.client.post("/api/auth/organization/invite-member", {
        email: invitedEmail,
        role: "admin",
        organizationId: created.id,
      });
      expect(invitation.status).toBe(200);
      invitationId = invitation.data.id;
    });

    it("GET /api/admin/organizations lists an organization with its member count and plan", async () => {
      const response = await admin.client.get(`/api/admin/organizations?q=${encodeURIComponent(created.slug)}`);
      expect(response.status).toBe(200);
      expect(response.data).toEqual({
        organizations: [
          {
            id: created.id,
            name: "Detailed Org",
            slug: created.slug,
            createdAt: expect.any(String),
            memberCount: 2,
            plan: { key: "free", name: "Free" },
            status: null,
          },
        ],
        total: 1,
        limit: 25,
        offset: 0,
      });
    });

    it("GET /api/admin/organizations/:organizationId shows members, teams with member counts, and pending invitations with their inviter", async () => {
      const response = await admin.client.get(`/api/admin/organizations/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.data.organization).toEqual({
        id: created.id,
        name: "Detailed Org",
        slug: created.slug,
        logo: null,
        createdAt: expect.any(String),
      });
      expect(
        response.data.members.map((row: { userId: string; name: string; email: string; role: string }) => [
          row.userId,
          row.name,
          row.email,
          row.role,
        ]),
      ).toEqual([
        [owner.id, owner.name, owner.email, "owner"],
        [member.id, member.name, member.email, "member"],
      ]);
      // The owner joined the default team (named after the organization) when creating it; both were added to Helpdesk.
      expect(response.data.teams).toEqual([
        { id: created.defaultTeamId, name: "Detailed Org", memberCount: 1, createdAt: expect.any(String) },
        { id: helpdeskId, name: "Helpdesk", memberCount: 2, createdAt: expect.any(String) },
      ]);
      expect(response.data.invitations).toEqual([
        {
          id: invitationId,
          email: invitedEmail,
          role: "admin",
          expiresAt: expect.any(String),
          inviter: { id: owner.id, name: owner.name },
        },
      ]);
    });

    it("GET /api/admin/organizations/:organizationId answers 404 'organization not found' for an unknown id", async () => {
      const body = await expectError(
        await admin.client.get("/api/admin/organizations/no-such-organization"),
        404,
        "organization not found",
      );
      expect(body.code).toBe("NOT_FOUND");
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import type { TestResponse } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * Tenant isolation: the owner of organization A passes organization B's ids to every organization-scoped
 * endpoint. Each call must be refused without revealing B's data, and B must read the same afterwards
 * (re-read through the API as B's owner, and row by row in the database).
 */

let server: TestApp;
let ownerA: TestUser;
let memberA: TestUser;
let ownerB: TestUser;
let memberB: TestUser;
const a = { organizationId: "", teamId: "", memberId: "", invitationId: "" };
const b = {
  organizationId: "",
  name: "",
  teamId: "",
  memberId: "",
  ownerMemberId: "",
  invitationId: "",
  invitedEmail: "",
};

beforeAll(async () => {
  server = await createTestApp();
  [ownerA, memberA, ownerB, memberB] = await Promise.all([
    createVerifiedUser(server, { label: "tenant-a-owner" }),
    createVerifiedUser(server, { label: "tenant-a-member" }),
    createVerifiedUser(server, { label: "tenant-b-owner" }),
    createVerifiedUser(server, { label: "tenant-b-member" }),
  ]);

  const organizationA = await createOrganizationWithOwner(ownerA, "Tenant A");
  a.organizationId = organizationA.id;
  a.teamId = organizationA.defaultTeamId;
  a.memberId = await addMember(ownerA, a.organizationId, memberA, "member");
  a.invitationId = (
    await ownerA.client.post("/api/auth/organization/invite-member", {
      email: "a-invitee@example.test",
      role: "member",
      organizationId: a.organizationId,
    })
  ).data.id;

  const organizationB = await createOrganizationWithOwner(ownerB, "Tenant B Secret");
  b.organizationId = organizationB.id;
  b.name = organizationB.name;
  b.memberId = await addMember(ownerB, b.organizationId, memberB, "member");
  const teamB = await ownerB.client.post("/api/auth/organization/create-team", {
    name: "B Secret Team",
    organizationId: b.organizationId,
  });
  expect(teamB.status).toBe(200);
  b.teamId = teamB.data.id;
  expect(
    (
      await ownerB.client.post("/api/auth/organization/add-team-member", {
        teamId: b.teamId,
        userId: memberB.id,
        organizationId: b.organizationId,
      })
    ).status,
  ).toBe(200);
  b.invitedEmail = "b-invitee@example.test";
  const invitationB = await ownerB.client.post("/api/auth/organization/invite-member", {
    email: b.invitedEmail,
    role: "admin",
    organizationId: b.organizationId,
  });
  expect(invitationB.status).toBe(200);
  b.invitationId = invitationB.data.id;
  b.ownerMemberId = (
    await server.db
      .selectFrom("member")
      .select("id")
      .where("organizationId", "=", b.organizationId)
      .where("userId", "=", ownerB.id)
      .executeTakeFirstOrThrow()
  ).id;

  // A's owner works in A: it is the active organization of the session that attacks B.
  expect(
    (await ownerA.client.post("/api/auth/organization/set-active", { organizationId: a.organizationId })).status,
  ).toBe(200);
  snapshotOfB = await readB();
});

afterAll(async () => {
  await server?.close();
});

let snapshotOfB: Awaited<ReturnType<typeof readB>>;

/** Everything of B, as B's owner sees it through the API and as the database holds it. */
async function readB() {
  const q = `organizationId=${b.organizationId}`;
  const [full, members, teams, invitations, teamMembers, ownMembers] = await Promise.all([
    ownerB.client.get(`/api/auth/organization/get-full-organization?${q}`),
    ownerB.client.get(`/api/auth/organization/list-members?${q}`),
    ownerB.client.get(`/api/auth/organization/list-teams?${q}`),
    ownerB.client.get(`/api/auth/organization/list-invitations?${q}`),
    ownerB.client.get(`/api/auth/organization/list-team-members?teamId=${b.teamId}`),
    ownerB.client.get(`/api/organizations/${b.organizationId}/members`),
  ]);
  for (const response of [full, members, teams, invitations, ownMembers]) expect(response.status).toBe(200);
  const db = server.db;
  const rows = {
    organization: await db.selectFrom("organization").selectAll().where("id", "=", b.organizationId).execute(),
    members: await db
      .selectFrom("member")
      .selectAll()
      .where("organizationId", "=", b.organizationId)
      .orderBy("id")
      .execute(),
    teams: await db
      .selectFrom("team")
      .selectAll()
      .where("organizationId", "=", b.organizationId)
      .orderBy("id")
      .execute(),
    teamMembers: await db.selectFrom("teamMember").selectAll().where("teamId", "=", b.teamId).orderBy("id").execute(),
    invitations: await db
      .selectFrom("invitation")
      .selectAll()
      .where("organizationId", "=", b.organizationId)
      .orderBy("id")
      .execute(),
  };
  return {
    api: {
      full: comparableAnswer(full.data),
      members: comparableAnswer(members.data),
      teams: comparableAnswer(teams.data),
      invitations: comparableAnswer(invitations.data),
      teamMembers: comparableAnswer(teamMembers.data),
      ownMembers: comparableAnswer(ownMembers.data),
    },
    rows,
  };
}

/**
 * An answer's body without its request id, which every answer has its own of (an error body carries it), and with its
 * lists sorted by id: better-auth reads them without an order, and PostgreSQL may return an updated row last.
 */
function comparableAnswer(data: unknown): unknown {
  if (Array.isArray(data))
    return data.map(comparableAnswer).sort((x, y) => String(idOf(x)).localeCompare(String(idOf(y))));
  if (!data || typeof data !== "object") return data;
  const { requestId: _requestId, ...rest } = data as Record<string, unknown>;
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, comparableAnswer(value)]));
}

const idOf = (value: unknown) => (value && typeof value === "object" ? (value as { id?: unknown }).id : undefined);

/** Refused (4xx, not a server error) and nothing of B in the answer. */
function expectRefused(response: TestResponse, expected?: { status: number; message: string }) {
  expect(response.status, JSON.stringify(response.data)).toBeGreaterThanOrEqual(400);
  expect(response.status, JSON.stringify(response.data)).toBeLessThan(500);
  if (expected) expect({ status: response.status, message: response.data?.message }).toEqual(expected);
  const text = JSON.stringify(response.data);
  for (const secret of [b.name, "B Secret Team", memberB.email, ownerB.email, b.invitedEmail])
    expect(text).not.toContain(secret);
}

const notAMember = { status: 400, message: "user is not a member of the organization" };

type Attack = [name: string, attack: () => Promise<TestResponse>, expected?: { status: number; message: string }];

const attacks: Attack[] = [
  [
    "get-full-organization",
    () => ownerA.client.get(`/api/auth/organization/get-full-organization?organizationId=${b.organizationId}`),
    notAMember,
  ],
  [
    "update (organization B)",
    () =>
      ownerA.client.post("/api/auth/organization/update", {
        organizationId: b.organizationId,
        data: { name: "Owned by A", metadata: { owner: "A" } },
      }),
    notAMember,
  ],
  [
    "delete (organization B)",
    () => ownerA.client.post("/api/auth/organization/delete", { organizationId: b.organizationId }),
    notAMember,
  ],
  ["list-members", () => ownerA.client.get(`/api/auth/organization/list-members?organizationId=${b.organizationId}`)],
  [
    "remove-member (B's member id, organization B)",
    () =>
      ownerA.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: b.memberId,
        organizationId: b.organizationId,
      }),
    { status: 400, message: "member not found" },
  ],
  [
    "remove-member (B's member id, organization A)",
    () =>
      ownerA.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: b.memberId,
        organizationId: a.organizationId,
      }),
    { status: 400, message: "member not found" },
  ],
  [
    "remove-member (B's member e-mail, organization A)",
    () =>
      ownerA.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: memberB.email,
        organizationId: a.organizationId,
      }),
    { status: 400, message: "member not found" },
  ],
  [
    "remove-member (B's owner id, organization A)",
    () =>
      ownerA.client.post("/api/auth/organization/remove-member", {
        memberIdOrEmail: b.ownerMemberId,
        organizationId: a.organizationId,
      }),
  ],
  [
    "update-member-role (organization B)",
    () =>
      ownerA.client.post("/api/auth/organization/update-member-role", {
        memberId: b.memberId,
        role: "owner",
        organizationId: b.organizationId,
      }),
    { status: 400, message: "member not found" },
  ],
  [
    "update-member-role (B's member, organization A)",
    () =>
      ownerA.client.post("/api/auth/organization/update-member-role", {
        memberId: b.memberId,
        role: "owner",
        organizationId: a.organizationId,
      }),
  ],
  [
    "invite-member (organization B)",
    () =>
      ownerA.client.post("/api/auth/organization/invite-member", {
        email: "planted@example.test",
        role: "owner",
        organizationId: b.organizationId,
      }),
  ],
  [
    "invite-member (organization A, B's team)",
    () =>
      ownerA.client.post("/api/auth/organization/invite-member", {
        email: "planted-team@example.test",
        role: "member",
        organizationId: a.organizationId,
        teamId: b.teamId,
      }),
    { status: 400, message: "team not found" },
  ],
  [
    "list-invitations",
    () => ownerA.client.get(`/api/auth/organization/list-invitations?organizationId=${b.organizationId}`),
  ],
  [
    "cancel-invitation (B's invitation)",
    () => ownerA.client.post("/api/auth/organization/cancel-invitation", { invitationId: b.invitationId }),
    { status: 400, message: "member not found" },
  ],
  [
    "create-team (organization B)",
    () =>
      ownerA.client.post("/api/auth/organization/create-team", { name: "Planted", organizationId: b.organizationId }),
  ],
  ["list-teams", () => ownerA.client.get(`/api/auth/organization/list-teams?organizationId=${b.organizationId}`)],
  [
    "update-team (organization B)",
    () =>
      ownerA.client.post("/api/auth/organization/update-team", {
        teamId: b.teamId,
        data: { name: "Renamed by A", organizationId: b.organizationId },
      }),
    { status: 403, message: "not allowed to delete or update teams" },
  ],
  [
    "update-team (B's team, organization A)",
    () =>
      ownerA.client.post("/api/auth/organization/update-team", {
        teamId: b.teamId,
        data: { name: "Renamed by A", organizationId: a.organizationId },
      }),
    { status: 400, message: "team not found" },
  ],
  [
    "update-team (B's team, A active, no organization given)",
    () => ownerA.client.post("/api/auth/organization/update-team", { teamId: b.teamId, data: { name: "Moved" } }),
    { status: 400, message: "team not found" },
  ],
  [
    "remove-team (organization B)",
    () =>
      ownerA.client.post("/api/auth/organization/remove-team", { teamId: b.teamId, organizationId: b.organizationId }),
    { status: 403, message: "not allowed to delete or update teams" },
  ],
  [
    "remove-team (B's team, organization A)",
    () =>
      ownerA.client.post("/api/auth/organization/remove-team", { teamId: b.teamId, organizationId: a.organizationId }),
    { status: 400, message: "team not found" },
  ],
  [
    "add-team-member (organization B)",
    () =>
      ownerA.client.post("/api/auth/organization/add-team-member", {
        teamId: b.teamId,
        userId: ownerA.id,
        organizationId: b.organizationId,
      }),
    notAMember,
  ],
  [
    "add-team-member (B's team, organization A)",
    () =>
      ownerA.client.post("/api/auth/organization/add-team-member", {
        teamId: b.teamId,
        userId: memberA.id,
        organizationId: a.organizationId,
      }),
    { status: 400, message: "team not found" },
  ],
  [
    "add-team-member (B's member into A's team)",
    () =>
      ownerA.client.post("/api/auth/organization/add-team-member", {
        teamId: a.teamId,
        userId: memberB.id,
        organizationId: a.organizationId,
      }),
    notAMember,
  ],
  [
    "remove-team-member (organization B)",
    () =>
      ownerA.client.post("/api/auth/organization/remove-team-member", {
        teamId: b.teamId,
        userId: memberB.id,
        organizationId: b.organizationId,
      }),
    notAMember,
  ],
  [
    "remove-team-member (B's team, organization A)",
    () =>
      ownerA.client.post("/api/auth/organization/remove-team-member", {
        teamId: b.teamId,
        userId: memberB.id,
        organizationId: a.organizationId,
      }),
    notAMember,
  ],
  [
    "list-team-members (B's team)",
    () => ownerA.client.get(`/api/auth/organization/list-team-members?teamId=${b.teamId}`),
  ],
  [
    "set-active (organization B)",
    () => ownerA.client.post("/api/auth/organization/set-active", { organizationId: b.organizationId }),
    notAMember,
  ],
  [
    "GET /api/organizations/:id/members",
    () => ownerA.client.get(`/api/organizations/${b.organizationId}/members`),
    { status: 403, message: "user is not a member of the organization" },
  ],
  [
    "GET /api/organizations/:id/members with a search",
    () =>
      ownerA.client.get(
        `/api/organizations/${b.organizationId}/members?search=${encodeURIComponent(memberB.email)}&limit=100&offset=0`,
      ),
    { status: 403, message: "user is not a member of the organization" },
  ],
  [
    "GET /api/organizations/:id/teams",
    () => ownerA.client.get(`/api/organizations/${b.organizationId}/teams`),
    { status: 403, message: "user is not a member of the organization" },
  ],
];

describe("tenant isolation: the owner of A cannot read or change organization B", () => {
  it.each(attacks)("%s is refused and leaves B unchanged", async (_name, attack, expected) => {
    expectRefused(await attack(), expected);
    expect(await readB()).toEqual(snapshotOfB);
  });

  it("has-permission for B answers no for every permission, and B is unchanged", async () => {
    const response = await ownerA.client.post("/api/auth/organization/has-permission", {
      permissions: { organization: ["update"] },
      organizationId: b.organizationId,
    });
    expect(response.data?.success === true).toBe(false);
    expectRefused(response, notAMember);
    expect(await readB()).toEqual(snapshotOfB);
  });

  it("a refused request for B leaves A's owner working in A: the active organization stays", async () => {
    expectRefused(
      await ownerA.client.get(`/api/auth/organization/get-full-organization?organizationId=${b.organizationId}`),
      notAMember,
    );
    expectRefused(
      await ownerA.client.post("/api/auth/organization/set-active", { organizationId: b.organizationId }),
      notAMember,
    );
    const slugOfB = (
      await server.db
        .selectFrom("organization")
        .select("slug")
        .where("id", "=", b.organizationId)
        .executeTakeFirstOrThrow()
    ).slug;
    expectRefused(
      await ownerA.client.get(`/api/auth/organization/get-full-organization?organizationSlug=${slugOfB}`),
      notAMember,
    );
    expectRefused(
      await ownerA.client.post("/api/auth/organization/set-active", { organizationSlug: slugOfB }),
      notAMember,
    );
    const session = await ownerA.client.get("/api/auth/get-session");
    expect(session.data.session.activeOrganizationId).toBe(a.organizationId);
  });

  it("the same calls on A's own data succeed, so the refusals above are about the tenant", async () => {
    const full = await ownerA.client.get(
      `/api/auth/organization/get-full-organization?organizationId=${a.organizationId}`,
    );
    expect(full.status).toBe(200);
    expect(full.data.name).toBe("Tenant A");
    expect((await ownerA.client.get(`/api/organizations/${a.organizationId}/members`)).status).toBe(200);
    expect(
      (await ownerA.client.get(`/api/auth/organization/list-teams?organizationId=${a.organizationId}`)).status,
    ).toBe(200);
    expect(
      (await ownerA.client.get(`/api/auth/organization/list-invitations?organizationId=${a.organizationId}`)).status,
    ).toBe(200);
    const permission = await ownerA.client.post("/api/auth/organization/has-permission", {
      permissions: { organization: ["update"] },
      organizationId: a.organizationId,
    });
    expect(permission.data).toMatchObject({ success: true });
    const renamed = await ownerA.client.post("/api/auth/organization/update-team", {
      teamId: a.teamId,
      data: { name: "A team renamed", organizationId: a.organizationId },
    });
    expect(renamed.status).toBe(200);
    const cancel = await ownerA.client.post("/api/auth/organization/cancel-invitation", {
      invitationId: a.invitationId,
    });
    expect(cancel.status).toBe(200);
    expect(await readB()).toEqual(snapshotOfB);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FREE_PLAN_LIMITS } from "../../../common/billing.schemas";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createClient, expectError, type TestResponse } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * The free plan's limits hold when the requests that would pass them arrive at once: each limit check counts and
 * writes under a lock on the organization's row, in the transaction of the write. On PostgreSQL the requests run
 * on as many connections as the pool has (10), so they really overlap; on SQLite they take turns.
 */

const MEMBER_LIMIT = FREE_PLAN_LIMITS.members ?? 0;
const TEAM_LIMIT = FREE_PLAN_LIMITS.teams ?? 0;
const SEATS_REFUSED = [
  `The Free plan includes ${MEMBER_LIMIT} seats and all are used by members and pending invitations.`,
  "Upgrade the plan to invite more.",
].join(" ");
const TEAMS_REFUSED = `The Free plan includes ${TEAM_LIMIT} teams. Upgrade the plan to create more.`;

let server: TestApp;
let owner: TestUser;

beforeAll(async () => {
  server = await createTestApp();
  owner = await createVerifiedUser(server);
});
afterAll(async () => server.close());

function invite(organizationId: string, email: string): Promise<TestResponse> {
  return owner.client.post("/api/auth/organization/invite-member", { email, role: "member", organizationId });
}

function createTeam(organizationId: string, name: string): Promise<TestResponse> {
  return owner.client.post("/api/auth/organization/create-team", { name, organizationId });
}

function accept(user: TestUser, invitationId: string): Promise<TestResponse> {
  return user.client.post("/api/auth/organization/accept-invitation", { invitationId });
}

/** `count` new addresses of the organization, lower-case as better-auth stores them. */
function newEmails(organizationId: string, prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}${index}-${organizationId}@example.com`.toLowerCase());
}

type Outcome = { accepted: TestResponse[]; refused: number };

/**
 * The winners' answers (200, or `success`) and how many lost, each loser checked to have had the plan's exact refusal.
 */
async function outcome(responses: TestResponse[], refusal: string, success = 200): Promise<Outcome> {
  const accepted = responses.filter((response) => response.status === success);
  const losers = responses.filter((response) => response.status !== success);
  for (const loser of losers) {
    const body = await expectError(loser, 403, refusal);
    expect(body.code).toBe("PLAN_LIMIT_REACHED");
  }
  return { accepted, refused: losers.length };
}

/** Of `sent` requests, `winners` passed and the rest were refused. */
function expectWinners(result: Outcome, sent: number, winners: number): void {
  const counts = { accepted: result.accepted.length, refused: result.refused };
  expect(counts).toEqual({ accepted: winners, refused: sent - winners });
}

/** Members and pending invitations as stored: the seats they use. */
async function seatsUsed(organizationId: string): Promise<{ members: number; pending: number }> {
  const members = server.db.selectFrom("member").select("id").where("organizationId", "=", organizationId);
  return { members: (await members.execute()).length, pending: (await pendingEmails(organizationId)).length };
}

async function pendingEmails(organizationId: string): Promise<string[]> {
  const rows = await server.db
    .selectFrom("invitation")
    .select("email")
    .where("organizationId", "=", organizationId)
    .where("status", "=", "pending")
    .orderBy("email")
    .execute();
  return rows.map((row) => row.email);
}

describe("plan limits under concurrent requests", () => {
  it("20 invitations at once into a free organization with 3 members fill its seats exactly", async () => {
    const organization = await createOrganizationWithOwner(owner, "Invited at once");
    for (let index = 0; index < 2; index += 1) {
      await addMember(owner, organization.id, await createVerifiedUser(server));
    }
    expect(await seatsUsed(organization.id)).toEqual({ members: 3, pending: 0 });

    const emails = newEmails(organization.id, "race", 20);
    const responses = await Promise.all(emails.map((email) => invite(organization.id, email)));

    const result = await outcome(responses, SEATS_REFUSED);
    expectWinners(result, 20, MEMBER_LIMIT - 3);
    expect(await seatsUsed(organization.id)).toEqual({ members: 3, pending: MEMBER_LIMIT - 3 });
    const invited = result.accepted.map((response) => (response.data as { email: string }).email);
    expect(await pendingEmails(organization.id)).toEqual(invited.sort());
    const overview = await owner.client.get(`/api/organizations/${organization.id}/billing`);
    expect(overview.data.seats).toEqual({ used: MEMBER_LIMIT, limit: MEMBER_LIMIT });
  });

  it("12 team creations at once on the free plan stop at its team limit", async () => {
    const organization = await createOrganizationWithOwner(owner, "Teams at once");
    const names = Array.from({ length: 12 }, (_, index) => `Race team ${index}`);
    const responses = await Promise.all(names.map((name) => createTeam(organization.id, name)));

    const result = await outcome(responses, TEAMS_REFUSED);
    // The default team is the first of the plan's teams.
    expectWinners(result, 12, TEAM_LIMIT - 1);
    const stored = server.db.selectFrom("team").select("name").where("organizationId", "=", organization.id);
    const teams = await stored.execute();
    expect(teams).toHaveLength(TEAM_LIMIT);
    const created = result.accepted.map((response) => (response.data as { name: string }).name);
    expect(
      teams
        .map((team) => team.name)
        .filter((name) => names.includes(name))
        .sort(),
    ).toEqual(created.sort());
  });

  it("12 team creations and 20 invitations at once by an API key (the app's routes) stop at the limits", async () => {
    const organization = await createOrganizationWithOwner(owner, "Key teams at once");
    const created = await owner.client.post(`/api/organizations/${organization.id}/api-keys`, {
      name: "race",
      scopes: ["teams:write", "invitations:write"],
    });
    expect(created.status).toBe(201);
    const script = createClient(server);
    const asKey = (suffix: string, json: unknown) =>
      script.post(`/api/organizations/${organization.id}${suffix}`, json, {
        origin: null,
        headers: { authorization: `Bearer ${(created.data as { key: string }).key}` },
      });
    const names = Array.from({ length: 12 }, (_, index) => `Key race team ${index}`);
    const teams = await Promise.all(names.map((name) => asKey("/teams", { name })));
    expectWinners(await outcome(teams, TEAMS_REFUSED, 201), 12, TEAM_LIMIT - 1);
    const stored = await server.db
      .selectFrom("team")
      .select("id")
      .where("organizationId", "=", organization.id)
      .execute();
    expect(stored).toHaveLength(TEAM_LIMIT);

    const emails = newEmails(organization.id, "key-race", 20);
    const invitations = await Promise.all(emails.map((email) => asKey("/invitations", { email, role: "member" })));
    expectWinners(await outcome(invitations, SEATS_REFUSED, 201), 20, MEMBER_LIMIT - 1);
    expect(await seatsUsed(organization.id)).toEqual({ members: 1, pending: MEMBER_LIMIT - 1 });
  });

  it("invitations accepted while 20 more are sent at once: all accepted, and the seats stop at the limit", async () => {
    const organization = await createOrganizationWithOwner(owner, "Accepted at once");
    const joining: TestUser[] = [];
    const invitationIds: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const user = await createVerifiedUser(server);
      const invited = await invite(organization.id, user.email);
      expect(invited.status).toBe(200);
      joining.push(user);
      invitationIds.push((invited.data as { id: string }).id);
    }
    expect(await seatsUsed(organization.id)).toEqual({ members: 1, pending: 3 });

    const [accepts, invites] = await Promise.all([
      Promise.all(joining.map((user, index) => accept(user, invitationIds[index]!))),
      Promise.all(newEmails(organization.id, "mixed", 20).map((email) => invite(organization.id, email))),
    ]);

    expect(accepts.map((response) => response.status)).toEqual([200, 200, 200]);
    expectWinners(await outcome(invites, SEATS_REFUSED), 20, MEMBER_LIMIT - 4);
    expect(await seatsUsed(organization.id)).toEqual({ members: 4, pending: MEMBER_LIMIT - 4 });
  });
});

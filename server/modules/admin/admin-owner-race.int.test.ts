import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FREE_PLAN_LIMITS } from "../../../common/billing.schemas";
import { findEntries, startAuditServer, stopAuditServer } from "../../test/audit-harness";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { expectError, type TestResponse } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * Operators giving an organization a new owner at the same moment: each call checks and writes under the
 * organization's lock, in one transaction with its audit entry, so the calls take turns. Whatever the order, the
 * members are exactly those the winning calls imply, the organization always has an owner, and the audit log holds
 * one entry per change made and none for a refused one. On PostgreSQL the calls run on separate connections and
 * really overlap; on SQLite they take turns for the writer lock. Each case runs several rounds.
 */

const ROUNDS = 5;
const SEATS_REFUSED = [
  `The Free plan includes ${FREE_PLAN_LIMITS.members} seats and all are used by members and pending invitations.`,
  "Upgrade the plan to invite more.",
].join(" ");

let server: TestApp;
let platformAdmin: TestUser;

beforeAll(async () => {
  ({ server, platformAdmin } = await startAuditServer());
});
afterAll(stopAuditServer);

function assignOwner(organizationId: string, email: string, reason: string): Promise<TestResponse> {
  return platformAdmin.client.post(`/api/admin/organizations/${organizationId}/owner`, { email, reason });
}

/** The organization's members as stored, by e-mail, sorted. */
async function membersOf(organizationId: string): Promise<{ email: string; role: string }[]> {
  return server.db
    .selectFrom("member")
    .innerJoin("user", "user.id", "member.userId")
    .select(["user.email", "member.role"])
    .where("member.organizationId", "=", organizationId)
    .orderBy("user.email")
    .execute();
}

/** The owner assignments the audit log holds for the organization: who became owner, with which reason. */
async function assignmentsOf(organizationId: string) {
  const entries = await findEntries({ organizationId, action: "organization.owner_assigned" });
  return entries
    .map((entry) => ({ email: entry.target?.label, reason: entry.reason, from: entry.details?.from ?? null }))
    .sort((left, right) => String(left.email).localeCompare(String(right.email)));
}

const byEmail = <T extends { email: string }>(rows: T[]) => [...rows].sort((a, b) => a.email.localeCompare(b.email));

describe("concurrent owner assignments", () => {
  it("two members of an ownerless organization made owners at once both become owners, each audited once", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const founder = await createVerifiedUser(server, { label: `race-founder-${round}` });
      const first = await createVerifiedUser(server, { label: `race-first-${round}` });
      const second = await createVerifiedUser(server, { label: `race-second-${round}` });
      const organization = await createOrganizationWithOwner(founder, `Ownerless race ${round}`);
      await addMember(founder, organization.id, first);
      await addMember(founder, organization.id, second);
      // The founder's account is gone: nobody can manage the organization.
      await server.db.deleteFrom("member").where("userId", "=", founder.id).execute();

      const responses = await Promise.all([
        assignOwner(organization.id, first.email, `first, round ${round}`),
        assignOwner(organization.id, second.email, `second, round ${round}`),
      ]);

      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      expect(await membersOf(organization.id)).toEqual(
        byEmail([
          { email: first.email, role: "owner" },
          { email: second.email, role: "owner" },
        ]),
      );
      expect(await assignmentsOf(organization.id)).toEqual(
        byEmail([
          { email: first.email, reason: `first, round ${round}`, from: "member" },
          { email: second.email, reason: `second, round ${round}`, from: "member" },
        ]),
      );
    }
  });

  it("with one seat left, of two outsiders made owners at once exactly one joins; the other is refused", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const founder = await createVerifiedUser(server, { label: `seat-founder-${round}` });
      const first = await createVerifiedUser(server, { label: `seat-first-${round}` });
      const second = await createVerifiedUser(server, { label: `seat-second-${round}` });
      const organization = await createOrganizationWithOwner(founder, `Last seat race ${round}`);
      // The founder and pending invitations use all seats but one.
      for (let index = 0; index < (FREE_PLAN_LIMITS.members ?? 0) - 2; index += 1) {
        const invited = await founder.client.post("/api/auth/organization/invite-member", {
          email: `seat-${round}-${index}-${organization.id}@example.test`.toLowerCase(),
          role: "member",
          organizationId: organization.id,
        });
        expect(invited.status).toBe(200);
      }

      const candidates = [first, second];
      const responses = await Promise.all(
        candidates.map((candidate) => assignOwner(organization.id, candidate.email, `seat race ${round}`)),
      );

      const winners = candidates.filter((_, index) => responses[index]?.status === 200);
      expect(winners).toHaveLength(1);
      const winner = winners[0] as TestUser;
      const loser = responses.find((response) => response.status !== 200) as TestResponse;
      const refusal = await expectError(loser, 403, SEATS_REFUSED);
      expect(refusal.code).toBe("PLAN_LIMIT_REACHED");
      expect(await membersOf(organization.id)).toEqual(
        byEmail([
          { email: founder.email, role: "owner" },
          { email: winner.email, role: "owner" },
        ]),
      );
      expect(await assignmentsOf(organization.id)).toEqual([
        { email: winner.email, reason: `seat race ${round}`, from: null },
      ]);
    }
  });

  it("the same outsider made owner twice at once joins once: the second call is told they already are", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const founder = await createVerifiedUser(server, { label: `twice-founder-${round}` });
      const heir = await createVerifiedUser(server, { label: `twice-heir-${round}` });
      const organization = await createOrganizationWithOwner(founder, `Twice race ${round}`);
      await server.db.deleteFrom("member").where("userId", "=", founder.id).execute();

      const responses = await Promise.all([
        assignOwner(organization.id, heir.email, `first call, round ${round}`),
        assignOwner(organization.id, heir.email, `second call, round ${round}`),
      ]);

      const won = responses.findIndex((response) => response.status === 200);
      expect(won).not.toBe(-1);
      const lost = responses[1 - won] as TestResponse;
      await expectError(lost, 409, `${heir.email} is already an owner of this organization.`);
      expect(await membersOf(organization.id)).toEqual([{ email: heir.email, role: "owner" }]);
      expect(await assignmentsOf(organization.id)).toEqual([
        { email: heir.email, reason: `${won === 0 ? "first" : "second"} call, round ${round}`, from: null },
      ]);
    }
  });
});

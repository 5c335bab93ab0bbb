import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findEntries, startAuditServer, stopAuditServer } from "../../test/audit-harness";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { expectError, type TestResponse } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * The organization's security policy changing while people act: turning `requireTwoFactor` on takes the organization's
 * lock, in one transaction with its audit entry. Whatever the order, two owners turning it on at once record one
 * change; a member without a second factor who acts meanwhile is either served (before the change) or refused with
 * TWO_FACTOR_REQUIRED, never anything else, and is refused every time once the change has answered; a member being
 * added meanwhile ends up a member who is refused too. On PostgreSQL the calls run on separate connections and really
 * overlap; on SQLite they take turns for the writer lock. Each case runs several rounds.
 */

const ROUNDS = 5;
const REQUIRED = "This organization requires a second factor: set one up in your account's security settings";

let server: TestApp;

beforeAll(async () => {
  ({ server } = await startAuditServer());
});
afterAll(stopAuditServer);

const turnOn = (user: TestUser, organizationId: string) =>
  user.client.request(`/api/organizations/${organizationId}/security`, {
    method: "PATCH",
    json: { requireTwoFactor: true },
  });
const listMembers = (user: TestUser, organizationId: string) =>
  user.client.get(`/api/organizations/${organizationId}/members`);

async function turnOnTotp(user: TestUser) {
  await server.db.updateTable("user").set({ twoFactorEnabled: 1 }).where("id", "=", user.id).execute();
}

/** Served, or refused for the policy: the only two answers a member without a second factor may get. */
async function expectServedOrRequired(response: TestResponse): Promise<"served" | "required"> {
  if (response.status === 200) return "served";
  const body = await expectError(response, 403, REQUIRED);
  expect(body.code).toBe("TWO_FACTOR_REQUIRED");
  return "required";
}

async function changesOf(organizationId: string) {
  return findEntries({ organizationId, action: "organization.security_changed" });
}

describe("turning the second-factor policy on while people act", () => {
  it("two owners at once: both answer 200, one change is recorded, the policy is on", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const owner = await createVerifiedUser(server, { label: `policy-race-owner-${round}` });
      const coOwner = await createVerifiedUser(server, { label: `policy-race-co-owner-${round}` });
      const organization = await createOrganizationWithOwner(owner, `Policy race ${round}`);
      await addMember(owner, organization.id, coOwner, "owner");
      await turnOnTotp(owner);
      await turnOnTotp(coOwner);

      const responses = await Promise.all([turnOn(owner, organization.id), turnOn(coOwner, organization.id)]);

      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      expect(responses.map((response) => response.data)).toEqual([
        {
          requireTwoFactor: true,
          callerHasSecondFactor: true,
          requireSso: false,
          allowDomainJoin: false,
          hasVerifiedSsoProvider: false,
        },
        {
          requireTwoFactor: true,
          callerHasSecondFactor: true,
          requireSso: false,
          allowDomainJoin: false,
          hasVerifiedSsoProvider: false,
        },
      ]);
      const changes = await changesOf(organization.id);
      expect(changes).toHaveLength(1);
      expect(changes[0]?.details).toEqual({ requireTwoFactor: true });
    }
  });

  it("a member without a factor acting meanwhile is served or refused, then refused once it answered", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const owner = await createVerifiedUser(server, { label: `policy-act-owner-${round}` });
      const member = await createVerifiedUser(server, { label: `policy-act-member-${round}` });
      const organization = await createOrganizationWithOwner(owner, `Policy acting ${round}`);
      await addMember(owner, organization.id, member);
      await turnOnTotp(owner);

      const [changed, ...acted] = await Promise.all([
        turnOn(owner, organization.id),
        listMembers(member, organization.id),
        listMembers(member, organization.id),
        listMembers(member, organization.id),
      ]);

      expect(changed.status).toBe(200);
      for (const response of acted) await expectServedOrRequired(response);
      await expectError(await listMembers(member, organization.id), 403, REQUIRED);
      // The owner, with a factor, is still served.
      expect((await listMembers(owner, organization.id)).status).toBe(200);
      expect(await changesOf(organization.id)).toHaveLength(1);
    }
  });

  it("a member being added meanwhile ends up a member, refused the organization like the others", async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const owner = await createVerifiedUser(server, { label: `policy-add-owner-${round}` });
      const newcomer = await createVerifiedUser(server, { label: `policy-add-newcomer-${round}` });
      const organization = await createOrganizationWithOwner(owner, `Policy adding ${round}`);
      await turnOnTotp(owner);

      const [changed] = await Promise.all([
        turnOn(owner, organization.id),
        addMember(owner, organization.id, newcomer),
      ]);

      expect(changed.status).toBe(200);
      const membership = await server.db
        .selectFrom("member")
        .select("role")
        .where("organizationId", "=", organization.id)
        .where("userId", "=", newcomer.id)
        .executeTakeFirst();
      expect(membership).toEqual({ role: "member" });
      await expectError(await listMembers(newcomer, organization.id), 403, REQUIRED);
    }
  });
});

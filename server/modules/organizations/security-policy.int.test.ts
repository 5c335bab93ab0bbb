import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrganizationSecurity } from "../../../common/organization.schemas";
import {
  actorOf,
  entry,
  findEntries,
  sentBy,
  startAuditServer,
  stopAuditServer,
  withAgent,
} from "../../test/audit-harness";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { expectError } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * The organization's security policy: owners and admins require a second factor of every member (not without one of
 * their own); while it is on, a member without a TOTP factor or a passkey is refused the organization's data and
 * routes, the app's own, billing's and better-auth's organization endpoints alike, and one with either passes.
 */

const REQUIRED = "This organization requires a second factor: set one up in your account's security settings";
const OWN_FACTOR_FIRST = "Set up a second factor for your own account before requiring one for the organization";

let server: TestApp;

beforeAll(async () => {
  ({ server } = await startAuditServer());
});
afterAll(stopAuditServer);

const securityPath = (organizationId: string) => `/api/organizations/${organizationId}/security`;
const setPolicy = (user: TestUser, organizationId: string, requireTwoFactor: unknown) =>
  user.client.request(securityPath(organizationId), { method: "PATCH", json: { requireTwoFactor }, ...withAgent });

/** TOTP turned on, as the two-factor plugin leaves it after the first correct code. */
async function turnOnTotp(user: TestUser) {
  await server.db.updateTable("user").set({ twoFactorEnabled: 1 }).where("id", "=", user.id).execute();
}

/** A passkey as @better-auth/passkey stores it after a registration. */
async function addPasskey(user: TestUser) {
  await server.db
    .insertInto("passkey")
    .values({
      id: randomUUID(),
      name: "Laptop",
      publicKey: "cHVibGljLWtleQ",
      userId: user.id,
      credentialID: randomUUID(),
      counter: 0,
      deviceType: "singleDevice",
      backedUp: 0,
      transports: "internal",
      createdAt: new Date().toISOString(),
      aaguid: null,
    })
    .execute();
}

/** An owner with TOTP, an admin and a member (neither with a factor), in a new organization. */
async function organizationWithPeople(name: string) {
  const owner = await createVerifiedUser(server, { label: `${name}-owner` });
  const admin = await createVerifiedUser(server, { label: `${name}-admin` });
  const member = await createVerifiedUser(server, { label: `${name}-member` });
  const organization = await createOrganizationWithOwner(owner, name);
  await addMember(owner, organization.id, admin, "admin");
  await addMember(owner, organization.id, member);
  await turnOnTotp(owner);
  return { owner, admin, member, organization };
}

/** Every kind of organization route a member may call (owners and admins also list the invitations). */
function organizationCalls(organizationId: string, role: "member" | "admin" = "member") {
  const query = `organizationId=${encodeURIComponent(organizationId)}`;
  return {
    members: (user: TestUser) => user.client.get(`/api/organizations/${organizationId}/members`),
    teams: (user: TestUser) => user.client.get(`/api/organizations/${organizationId}/teams`),
    security: (user: TestUser) => user.client.get(securityPath(organizationId)),
    billing: (user: TestUser) => user.client.get(`/api/organizations/${organizationId}/billing`),
    setActive: (user: TestUser) => user.client.post("/api/auth/organization/set-active", { organizationId }),
    fullOrganization: (user: TestUser) => user.client.get(`/api/auth/organization/get-full-organization?${query}`),
    listMembers: (user: TestUser) => user.client.get(`/api/auth/organization/list-members?${query}`),
    listTeams: (user: TestUser) => user.client.get(`/api/auth/organization/list-teams?${query}`),
    ...(role === "admin" && {
      listInvitations: (user: TestUser) => user.client.get(`/api/auth/organization/list-invitations?${query}`),
    }),
  };
}

describe("setting the policy", () => {
  it("is off for a new organization; members read it with whether they have a second factor", async () => {
    const { owner, member, organization } = await organizationWithPeople("Fresh");
    const ownerView = await owner.client.get(securityPath(organization.id));
    expect(ownerView.status).toBe(200);
    expect(ownerView.data).toEqual({
      requireTwoFactor: false,
      callerHasSecondFactor: true,
      requireSso: false,
      allowDomainJoin: false,
      hasVerifiedSsoProvider: false,
    } satisfies OrganizationSecurity);
    const memberView = await member.client.get(securityPath(organization.id));
    expect(memberView.data).toEqual({
      requireTwoFactor: false,
      callerHasSecondFactor: false,
      requireSso: false,
      allowDomainJoin: false,
      hasVerifiedSsoProvider: false,
    });
  });

  it("turns on for an owner with a second factor, audited with the change; setting it again records nothing", async () => {
    const { owner, organization } = await organizationWithPeople("Strict");
    const response = await setPolicy(owner, organization.id, true);
    expect(response.status).toBe(200);
    expect(response.data).toEqual({
      requireTwoFactor: true,
      callerHasSecondFactor: true,
      requireSso: false,
      allowDomainJoin: false,
      hasVerifiedSsoProvider: false,
    });
    expect((await owner.client.get(securityPath(organization.id))).data).toEqual({
      requireTwoFactor: true,
      callerHasSecondFactor: true,
      requireSso: false,
      allowDomainJoin: false,
      hasVerifiedSsoProvider: false,
    });
    expect((await setPolicy(owner, organization.id, true)).status).toBe(200);
    expect(await findEntries({ organizationId: organization.id, action: "organization.security_changed" })).toEqual([
      entry({
        action: "organization.security_changed",
        actor: actorOf(owner),
        target: { type: "organization", id: organization.id, label: "Strict" },
        organization: { id: organization.id, name: "Strict" },
        details: { requireTwoFactor: true },
        ...sentBy(owner),
      }),
    ]);
  });

  it("refuses an owner or admin without a second factor of their own, and records nothing", async () => {
    const { owner, admin, organization } = await organizationWithPeople("Unready");
    await expectError(await setPolicy(admin, organization.id, true), 400, OWN_FACTOR_FIRST);
    await server.db.updateTable("user").set({ twoFactorEnabled: 0 }).where("id", "=", owner.id).execute();
    const refused = await expectError(await setPolicy(owner, organization.id, true), 400, OWN_FACTOR_FIRST);
    expect(refused.code).toBe("OWN_SECOND_FACTOR_REQUIRED");
    expect((await owner.client.get(securityPath(organization.id))).data).toMatchObject({ requireTwoFactor: false });
    expect(await findEntries({ organizationId: organization.id, action: "organization.security_changed" })).toEqual([]);
  });

  it("lets an admin with a passkey set it; refuses a member, and a body that is not the form's", async () => {
    const { admin, member, organization } = await organizationWithPeople("Delegated");
    await addPasskey(admin);
    await expectError(
      await setPolicy(member, organization.id, false),
      403,
      "You are not allowed to access resource: organization",
    );
    await expectError(
      await setPolicy(admin, organization.id, "yes"),
      400,
      "requireTwoFactor: Say whether members must have a second factor",
    );
    expect((await setPolicy(admin, organization.id, true)).status).toBe(200);
    expect((await setPolicy(admin, organization.id, false)).data).toEqual({
      requireTwoFactor: false,
      callerHasSecondFactor: true,
      requireSso: false,
      allowDomainJoin: false,
      hasVerifiedSsoProvider: false,
    });
  });
});

describe("while the policy is on", () => {
  it("refuses a member without a second factor every organization route, with TWO_FACTOR_REQUIRED", async () => {
    const { owner, admin, member, organization } = await organizationWithPeople("Guarded");
    const calls = organizationCalls(organization.id, "admin");
    for (const [name, call] of Object.entries(calls)) expect([name, (await call(admin)).status]).toEqual([name, 200]);
    expect((await setPolicy(owner, organization.id, true)).status).toBe(200);
    for (const [name, call] of Object.entries(calls)) {
      const response = await call(admin);
      expect([name, response.status, response.data]).toEqual([
        name,
        403,
        expect.objectContaining({ code: "TWO_FACTOR_REQUIRED", message: REQUIRED }),
      ]);
    }
    // Writes too: better-auth's and the app's, the policy itself included.
    await expectError(
      await admin.client.post("/api/auth/organization/create-team", {
        name: "Sneaky",
        organizationId: organization.id,
      }),
      403,
      REQUIRED,
    );
    await expectError(await setPolicy(admin, organization.id, false), 403, REQUIRED);
    await expectError(await member.client.get(`/api/organizations/${organization.id}/members`), 403, REQUIRED);
  });

  it("lets a member with TOTP through, and one with a passkey", async () => {
    const { owner, admin, member, organization } = await organizationWithPeople("Passing");
    expect((await setPolicy(owner, organization.id, true)).status).toBe(200);
    await turnOnTotp(member);
    await addPasskey(admin);
    for (const [user, role] of [
      [owner, "admin"],
      [admin, "admin"],
      [member, "member"],
    ] as const) {
      for (const [name, call] of Object.entries(organizationCalls(organization.id, role)))
        expect([name, (await call(user)).status]).toEqual([name, 200]);
    }
  });

  it("refuses a member whose last factor went, even after a read that was allowed", async () => {
    const { owner, member, organization } = await organizationWithPeople("Lapsed");
    expect((await setPolicy(owner, organization.id, true)).status).toBe(200);
    await addPasskey(member);
    const members = `/api/organizations/${organization.id}/members`;
    expect((await member.client.get(members)).status).toBe(200);
    await server.db.deleteFrom("passkey").where("userId", "=", member.id).execute();
    await expectError(await member.client.get(members), 403, REQUIRED);
  });

  it("leaves a member free to list their organizations and to leave", async () => {
    const { owner, member, organization } = await organizationWithPeople("Exit");
    expect((await setPolicy(owner, organization.id, true)).status).toBe(200);
    const list = await member.client.get("/api/auth/organization/list");
    expect(list.status).toBe(200);
    expect((list.data as Array<{ id: string }>).map(({ id }) => id)).toContain(organization.id);
    expect((await member.client.post("/api/auth/organization/leave", { organizationId: organization.id })).status).toBe(
      200,
    );
  });

  it("does not touch other organizations of the member", async () => {
    const { owner, member, organization } = await organizationWithPeople("Neighbour");
    expect((await setPolicy(owner, organization.id, true)).status).toBe(200);
    const other = await createOrganizationWithOwner(member, "Own place");
    expect((await member.client.get(`/api/organizations/${other.id}/members`)).status).toBe(200);
    expect((await member.client.post("/api/auth/organization/set-active", { organizationId: other.id })).status).toBe(
      200,
    );
  });
});

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FREE_PLAN_LIMITS } from "../../../common/billing.schemas";
import {
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  type CreatedOrganization,
  type TestUser,
} from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import { registerDevProvider, startTestDns, uniqueSsoNames, verifyProviderDomain, type TestDns } from "../../test/sso";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * Joining by verified domain (docs/sso.md): an organization whose SSO provider verified a domain may let anyone with
 * a verified address on it join without an invitation, as a member, within the plan's seats, audited.
 */

const MEMBER_LIMIT = FREE_PLAN_LIMITS.members ?? 0;
const SEATS_REFUSED = [
  `The Free plan includes ${MEMBER_LIMIT} seats and all are used by members and pending invitations.`,
  "Upgrade the plan to invite more.",
].join(" ");
const NOT_OFFERED = "This organization can be joined by invitation only";

describe("joining an organization by verified domain", () => {
  let app: TestApp;
  let dns: TestDns;
  let owner: TestUser;
  let organization: CreatedOrganization;
  let names: { providerId: string; domain: string };
  const colleague = (label: string) =>
    createVerifiedUser(app, { label, email: `${label}.${randomBytes(3).toString("hex")}@${names.domain}` });
  const security = (client: TestUser["client"], json: Record<string, unknown>) =>
    client.request(`/api/organizations/${organization.id}/security`, { method: "PATCH", json });
  const members = (organizationId: string) =>
    app.db.selectFrom("member").select(["userId", "role"]).where("organizationId", "=", organizationId).execute();

  beforeAll(async () => {
    dns = await startTestDns();
    app = await createTestApp({ listen: true, env: { DEV_IDENTITY_PROVIDER: "true", DNS_SERVERS: dns.address } });
    names = uniqueSsoNames("join");
    owner = await createVerifiedUser(app, { label: "owner", email: `owner.${randomBytes(3).toString("hex")}@x.test` });
    organization = await createOrganizationWithOwner(owner, "Joinable");
    expect((await registerDevProvider(app, owner.client, { ...names, organizationId: organization.id })).status).toBe(
      200,
    );
  });
  afterAll(async () => {
    await app.close();
    await dns.close();
  });

  it("is switched on by owners and admins only, once a provider's domain is verified, and audited", async () => {
    await expectError(
      await security(owner.client, { allowDomainJoin: true }),
      400,
      "Verify the domain of an SSO provider before letting people on it join without an invitation",
    );
    expect((await verifyProviderDomain(owner.client, dns, names.providerId)).status).toBe(200);
    const member = await colleague("member");
    await addMember(owner, organization.id, member, "member");
    expect((await security(member.client, { allowDomainJoin: true })).status).toBe(403);

    const turnedOn = await security(owner.client, { allowDomainJoin: true });
    expect(turnedOn.status).toBe(200);
    expect(turnedOn.data).toMatchObject({ allowDomainJoin: true, hasVerifiedSsoProvider: true, requireSso: false });
    expect((await owner.client.get(`/api/organizations/${organization.id}/security`)).data).toMatchObject({
      allowDomainJoin: true,
    });
    // Setting what it has changes nothing and records nothing.
    expect((await security(owner.client, { allowDomainJoin: true })).status).toBe(200);
    const entries = await app.db
      .selectFrom("audit_event")
      .select(["details"])
      .where("organization_id", "=", organization.id)
      .where("action", "=", "organization.security_changed")
      .execute();
    expect(entries.map((entry) => JSON.parse(String(entry.details)))).toEqual([{ allowDomainJoin: true }]);
  });

  it("lists the organization to a person on its domain, who joins it once as a member, audited", async () => {
    const person = await colleague("joiner");
    const outsider = await createVerifiedUser(app, { label: "outsider" });
    expect((await person.client.get("/api/joinable-organizations")).data).toEqual([
      { id: organization.id, name: organization.name, slug: organization.slug, domain: names.domain },
    ]);
    expect((await outsider.client.get("/api/joinable-organizations")).data).toEqual([]);
    await expectError(
      await outsider.client.post(`/api/joinable-organizations/${organization.id}/join`, {}),
      403,
      NOT_OFFERED,
    );

    const joined = await person.client.post(`/api/joinable-organizations/${organization.id}/join`, {});
    expect(joined.status).toBe(200);
    expect(joined.data).toMatchObject({ id: organization.id, domain: names.domain });
    expect((await members(organization.id)).filter((row) => row.userId === person.id)).toEqual([
      { userId: person.id, role: "member" },
    ]);
    const entry = await app.db
      .selectFrom("audit_event")
      .select(["actor_id", "details"])
      .where("organization_id", "=", organization.id)
      .where("action", "=", "member.added")
      .where("target_id", "=", person.id)
      .executeTakeFirstOrThrow();
    expect([entry.actor_id, JSON.parse(String(entry.details))]).toEqual([
      person.id,
      { role: "member", domain: names.domain },
    ]);
    await expectError(
      await person.client.post(`/api/joinable-organizations/${organization.id}/join`, {}),
      409,
      "You are already a member of this organization",
    );
    expect((await person.client.get("/api/joinable-organizations")).data).toEqual([]);
  });

  it("refuses the signed-out, an unknown organization, and anyone once the owner turns it off", async () => {
    const anonymous = createClient(app);
    expect((await anonymous.get("/api/joinable-organizations")).status).toBe(401);
    expect((await anonymous.post(`/api/joinable-organizations/${organization.id}/join`, {})).status).toBe(401);
    const person = await colleague("late");
    await expectError(await person.client.post("/api/joinable-organizations/nope/join", {}), 403, NOT_OFFERED);
    expect((await security(owner.client, { allowDomainJoin: false })).status).toBe(200);
    expect((await person.client.get("/api/joinable-organizations")).data).toEqual([]);
    await expectError(
      await person.client.post(`/api/joinable-organizations/${organization.id}/join`, {}),
      403,
      NOT_OFFERED,
    );
    expect((await security(owner.client, { allowDomainJoin: true })).status).toBe(200);
  });

  it("counts the plan's seats: of people joining at once for the last free seats, only that many get in", async () => {
    const people = await Promise.all(Array.from({ length: 4 }, (_, index) => colleague(`race${index}`)));
    const used = (await members(organization.id)).length;
    for (let index = used; index < MEMBER_LIMIT - 2; index += 1) {
      const invited = await owner.client.post("/api/auth/organization/invite-member", {
        email: `seat${index}.${randomBytes(3).toString("hex")}@elsewhere.test`,
        role: "member",
        organizationId: organization.id,
      });
      expect(invited.status).toBe(200);
    }
    const answers = await Promise.all(
      people.map((person) => person.client.post(`/api/joinable-organizations/${organization.id}/join`, {})),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 403, 403]);
    for (const refused of answers.filter((answer) => answer.status === 403))
      expect(await expectError(refused, 403, SEATS_REFUSED)).toMatchObject({ code: "PLAN_LIMIT_REACHED" });
    expect((await members(organization.id)).length).toBe(used + 2);
  });
});

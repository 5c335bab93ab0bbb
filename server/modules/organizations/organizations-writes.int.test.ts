import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedApiKey } from "../../../common/api-key.schemas";
import type {
  OrganizationInvitation,
  OrganizationMember,
  OrganizationTeam,
  TeamMembership,
} from "../../../common/organization.schemas";
import {
  addMember,
  createOrganizationWithOwner,
  createVerifiedUser,
  listMails,
  type CreatedOrganization,
  type TestUser,
} from "../../test/factories";
import { createClient, expectError, type CallOptions, type TestClient } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * The organization's writes under `/api/organizations/{id}/…` (docs/api-keys.md): members, invitations and teams,
 * for a signed-in person (better-auth's endpoints decide, as for the web app) and for an API key with the scope (the
 * operations write, audited with the key as actor). Exact statuses and messages.
 */

const SCOPE_MISSING = "This API key does not have the scope this call needs";
const OTHER_ORGANIZATION = "This API key belongs to another organization";
const NOT_A_MEMBER = "user is not a member of the organization";

describe("an organization's writes, by its people and by its API keys", () => {
  let app: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let organization: CreatedOrganization;
  let other: CreatedOrganization;
  /** A client with no cookies and no Origin, as a script calling the API is. */
  let script: TestClient;

  beforeAll(async () => {
    app = await createTestApp();
    owner = await createVerifiedUser(app, { label: "owner" });
    admin = await createVerifiedUser(app, { label: "admin" });
    member = await createVerifiedUser(app, { label: "member" });
    outsider = await createVerifiedUser(app, { label: "outsider" });
    organization = await createOrganizationWithOwner(owner, "Acme");
    other = await createOrganizationWithOwner(outsider, "Other");
    await addMember(owner, organization.id, admin, "admin");
    await addMember(owner, organization.id, member, "member");
    script = createClient(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const path = (suffix: string, organizationId = organization.id) => `/api/organizations/${organizationId}${suffix}`;
  async function createKey(scopes: string[], name = scopes.join(" "), organizationId = organization.id) {
    const by = organizationId === organization.id ? owner : outsider;
    const response = await by.client.post(path("/api-keys", organizationId), { name, scopes });
    expect(response.status).toBe(201);
    return response.data as CreatedApiKey;
  }
  /** A call as a script makes it: the key as bearer token, no cookies, no Origin. */
  const asKey = (key: CreatedApiKey, suffix: string, options: CallOptions = {}, organizationId = organization.id) =>
    script.request(path(suffix, organizationId), {
      ...options,
      origin: null,
      headers: { authorization: `Bearer ${key.key}` },
    });
  const asPerson = (user: TestUser, suffix: string, options: CallOptions = {}) =>
    user.client.request(path(suffix), options);
  /** The audit entries of an action about a target, with who made them. */
  const entries = (action: string, targetId: string) =>
    app.db
      .selectFrom("audit_event")
      .select(["actor_type", "actor_id", "actor_label", "target_id", "organization_id"])
      .where("action", "=", action)
      .where("target_id", "=", targetId)
      .execute();
  const byKey = (key: CreatedApiKey, targetId: string) => [
    {
      actor_type: "api_key",
      actor_id: key.id,
      actor_label: `${key.name} (${key.prefix}…)`,
      target_id: targetId,
      organization_id: organization.id,
    },
  ];
  const byPerson = (user: TestUser, targetId: string) => [
    {
      actor_type: "user",
      actor_id: user.id,
      actor_label: user.email,
      target_id: targetId,
      organization_id: organization.id,
    },
  ];
  /** A new person who is a member of the organization (or of `into`), with their membership's id. */
  async function newMember(label: string, into = organization) {
    const user = await createVerifiedUser(app, { label });
    const memberId = await addMember(into.id === organization.id ? owner : outsider, into.id, user, "member");
    return { user, memberId };
  }

  describe("members (members:write)", () => {
    it("a person changes a role and removes a member as better-auth lets them: owners, admins", async () => {
      const { user, memberId } = await newMember("role-by-person");
      const changed = await asPerson(admin, `/members/${memberId}`, { method: "PATCH", json: { role: "admin" } });
      expect(changed.status).toBe(200);
      expect(changed.data).toEqual({
        id: memberId,
        organizationId: organization.id,
        userId: user.id,
        role: "admin",
        createdAt: expect.any(String),
      } satisfies OrganizationMember);
      expect(await entries("member.role_changed", user.id)).toEqual(byPerson(admin, user.id));
      const refused = await asPerson(member, `/members/${memberId}`, { method: "PATCH", json: { role: "member" } });
      await expectError(refused, 403, "You are not allowed to update this member");
      await expectError(
        await asPerson(member, `/members/${memberId}`, { method: "DELETE" }),
        401,
        "not allowed to delete this member",
      );
      const ownerMemberId = (
        await app.db
          .selectFrom("member")
          .select("id")
          .where("userId", "=", owner.id)
          .where("organizationId", "=", organization.id)
          .executeTakeFirstOrThrow()
      ).id;
      await expectError(
        await asPerson(admin, `/members/${ownerMemberId}`, { method: "DELETE" }),
        401,
        "not allowed to delete this member",
      );
      await expectError(
        await outsider.client.request(path(`/members/${memberId}`), { method: "DELETE" }),
        403,
        NOT_A_MEMBER,
      );
      expect((await asPerson(owner, `/members/${memberId}`, { method: "DELETE" })).status).toBe(204);
      expect(await entries("member.removed", user.id)).toEqual(byPerson(owner, user.id));
      await expectError(await asPerson(owner, `/members/${memberId}`, { method: "DELETE" }), 404, "member not found");
    });

    it("a key with members:write changes a role and removes a member, audited with the key as actor", async () => {
      const key = await createKey(["members:write"], "HR sync");
      const { user, memberId } = await newMember("role-by-key");
      const changed = await asKey(key, `/members/${memberId}`, {
        method: "PATCH",
        json: { role: ["admin", "member"] },
      });
      expect(changed.status).toBe(200);
      expect(changed.data).toMatchObject({ id: memberId, userId: user.id, role: "admin,member" });
      expect(await entries("member.role_changed", user.id)).toEqual(byKey(key, user.id));

      const removed = await asKey(key, `/members/${memberId}`, { method: "DELETE" });
      expect(removed.status).toBe(204);
      expect(await entries("member.removed", user.id)).toEqual(byKey(key, user.id));
      const left = await app.db
        .selectFrom("member")
        .select("id")
        .where("userId", "=", user.id)
        .where("organizationId", "=", organization.id)
        .execute();
      expect(left).toEqual([]);
      // The person's session no longer has the organization active.
      const session = await app.db
        .selectFrom("session")
        .select("activeOrganizationId")
        .where("userId", "=", user.id)
        .execute();
      expect(session.map((row) => row.activeOrganizationId)).not.toContain(organization.id);
    });

    it("a key is no owner: it neither touches an owner nor makes one", async () => {
      const key = await createKey(["members:write"]);
      const { memberId } = await newMember("owner-rules");
      const ownerMemberId = (
        await app.db
          .selectFrom("member")
          .select("id")
          .where("userId", "=", owner.id)
          .where("organizationId", "=", organization.id)
          .executeTakeFirstOrThrow()
      ).id;
      const updateRefused = "You are not allowed to update this member";
      await expectError(
        await asKey(key, `/members/${memberId}`, { method: "PATCH", json: { role: "owner" } }),
        403,
        updateRefused,
      );
      await expectError(
        await asKey(key, `/members/${ownerMemberId}`, { method: "PATCH", json: { role: "admin" } }),
        403,
        updateRefused,
      );
      await expectError(
        await asKey(key, `/members/${ownerMemberId}`, { method: "DELETE" }),
        401,
        "not allowed to delete this member",
      );
      const roles = await app.db
        .selectFrom("member")
        .select("role")
        .where("id", "in", [memberId, ownerMemberId])
        .execute();
      expect(roles.map((row) => row.role).sort()).toEqual(["member", "owner"]);
    });

    it("refuses a key without the scope, another organization's member or path, a bad role", async () => {
      const reader = await createKey(["members:read"]);
      const { memberId } = await newMember("refusals");
      const missing = await asKey(reader, `/members/${memberId}`, { method: "DELETE" });
      expect((await expectError(missing, 403, SCOPE_MISSING)).code).toBe("API_KEY_SCOPE_MISSING");
      expect(missing.data.details).toEqual({ scope: "members:write" });
      await expectError(
        await asKey(reader, `/members/${memberId}`, { method: "PATCH", json: { role: "admin" } }),
        403,
        SCOPE_MISSING,
      );
      const writer = await createKey(["members:write"]);
      const foreign = await newMember("foreign-member", other);
      await expectError(
        await asKey(writer, `/members/${foreign.memberId}`, { method: "DELETE" }),
        404,
        "member not found",
      );
      await expectError(
        await asKey(writer, `/members/${foreign.memberId}`, { method: "DELETE" }, other.id),
        403,
        OTHER_ORGANIZATION,
      );
      const badRole = await asKey(writer, `/members/${memberId}`, { method: "PATCH", json: { role: "superuser" } });
      await expectError(badRole, 400, "role: Use one or more of: owner, admin, member");
      const extra = await asKey(writer, `/members/${memberId}`, {
        method: "PATCH",
        json: { role: "admin", organizationId: other.id },
      });
      expect(extra.status).toBe(400);
      expect(
        (await app.db.selectFrom("member").select("role").where("id", "=", foreign.memberId).executeTakeFirstOrThrow())
          .role,
      ).toBe("member");
    });
  });

  describe("invitations (invitations:write)", () => {
    it("a person invites, lists and cancels as better-auth lets them", async () => {
      const email = `person-invite-${organization.id}@example.test`.toLowerCase();
      const invited = await asPerson(admin, "/invitations", { json: { email, role: "member" } });
      expect(invited.status).toBe(201);
      const invitation = invited.data as OrganizationInvitation;
      expect(invitation).toMatchObject({ email, role: "member", status: "pending", inviterId: admin.id, teamId: null });
      expect(await entries("invitation.sent", invitation.id)).toEqual(byPerson(admin, invitation.id));
      const listed = await asPerson(member, "/invitations");
      expect(listed.status).toBe(200);
      expect((listed.data as OrganizationInvitation[]).map((found) => found.id)).toContain(invitation.id);
      await expectError(
        await asPerson(member, "/invitations", { json: { email: "not-me@example.test", role: "member" } }),
        403,
        "You are not allowed to invite users to this organization",
      );
      await expectError(
        await asPerson(member, `/invitations/${invitation.id}`, { method: "DELETE" }),
        403,
        "You are not allowed to cancel this invitation",
      );
      expect((await asPerson(owner, `/invitations/${invitation.id}`, { method: "DELETE" })).status).toBe(204);
      expect(await entries("invitation.canceled", invitation.id)).toEqual(byPerson(owner, invitation.id));
      await expectError(
        await asPerson(owner, "/invitations/no-such-invitation", { method: "DELETE" }),
        404,
        "invitation not found",
      );
    });

    it("a key invites in the organization's name: no inviter, the mail names it, the key is the actor", async () => {
      const key = await createKey(["invitations:write"], "Onboarding");
      const email = `key-invite-${organization.id}@example.test`.toLowerCase();
      const invited = await asKey(key, "/invitations", {
        json: { email: ` ${email.toUpperCase()} `, role: "admin", teamId: organization.defaultTeamId },
      });
      expect(invited.status).toBe(201);
      const invitation = invited.data as OrganizationInvitation;
      expect(invitation).toEqual({
        id: expect.any(String),
        organizationId: organization.id,
        email,
        role: "admin",
        teamId: organization.defaultTeamId,
        status: "pending",
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
        inviterId: null,
      } satisfies OrganizationInvitation);
      expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(2 * 86_400_000);
      expect(await entries("invitation.sent", invitation.id)).toEqual(byKey(key, invitation.id));
      const [mail] = await listMails(app, email);
      expect(mail?.subject).toBe("Acme invited you to Atrium");
      expect(mail?.text).toContain("Acme invited you to join as admin.");
      expect(mail?.text).not.toContain(owner.name);

      const listed = await asKey(key, "/invitations");
      expect(listed.status).toBe(200);
      expect(listed.data).toContainEqual(invitation);
      // Its link names no inviter, and the invited person sees and accepts it.
      const preview = await createClient(app).get(`/api/invitations/${invitation.id}`);
      expect(preview.data).toEqual({ state: "pending", organizationName: "Acme", inviterName: null });
      const invitee = await createVerifiedUser(app, { label: "invitee", email });
      const details = await invitee.client.get(`/api/auth/organization/get-invitation?id=${invitation.id}`);
      expect(details.status).toBe(200);
      expect(details.data).toMatchObject({ id: invitation.id, organizationName: "Acme", inviterEmail: null });
      await expectError(
        await member.client.get(`/api/auth/organization/get-invitation?id=${invitation.id}`),
        403,
        "You are not the recipient of the invitation",
      );
      const accepted = await invitee.client.post("/api/auth/organization/accept-invitation", {
        invitationId: invitation.id,
      });
      expect(accepted.status).toBe(200);
      expect(accepted.data.member).toMatchObject({ userId: invitee.id, role: "admin" });
    });

    it("a key follows better-auth's rules: no owner, no member or invited address, own teams only", async () => {
      const key = await createKey(["invitations:write"]);
      const email = `rules-${organization.id}@example.test`.toLowerCase();
      await expectError(
        await asKey(key, "/invitations", { json: { email, role: "owner" } }),
        403,
        "You are not allowed to invite a user with this role",
      );
      await expectError(
        await asKey(key, "/invitations", { json: { email: member.email, role: "member" } }),
        400,
        "User is already a member of this organization",
      );
      await expectError(
        await asKey(key, "/invitations", { json: { email, role: "member", teamId: other.defaultTeamId } }),
        400,
        "team not found",
      );
      const first = await asKey(key, "/invitations", { json: { email, role: "member" } });
      expect(first.status).toBe(201);
      await expectError(
        await asKey(key, "/invitations", { json: { email, role: "member" } }),
        400,
        "User is already invited to this organization",
      );
      const canceled = await asKey(key, `/invitations/${first.data.id}`, { method: "DELETE" });
      expect(canceled.status).toBe(204);
      expect(await entries("invitation.canceled", first.data.id)).toEqual(byKey(key, first.data.id));
      const row = await app.db
        .selectFrom("invitation")
        .select("status")
        .where("id", "=", first.data.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("canceled");
      expect((await asKey(key, "/invitations", { json: { email, role: "member" } })).status).toBe(201);
    });

    it("refuses a key without the scope, and another organization's invitation", async () => {
      const reader = await createKey(["members:read", "members:write"]);
      const listed = await asKey(reader, "/invitations");
      await expectError(listed, 403, SCOPE_MISSING);
      expect(listed.data.details).toEqual({ scope: "invitations:write" });
      await expectError(
        await asKey(reader, "/invitations", { json: { email: "x@example.test", role: "member" } }),
        403,
        SCOPE_MISSING,
      );
      const foreign = await outsider.client.post(path("/invitations", other.id), {
        email: `foreign-${other.id}@example.test`,
        role: "member",
      });
      expect(foreign.status).toBe(201);
      const writer = await createKey(["invitations:write"]);
      await expectError(
        await asKey(writer, `/invitations/${foreign.data.id}`, { method: "DELETE" }),
        404,
        "invitation not found",
      );
      const row = await app.db
        .selectFrom("invitation")
        .select("status")
        .where("id", "=", foreign.data.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("pending");
    });
  });

  describe("teams (teams:write)", () => {
    it("a person creates, renames and deletes a team and changes its members as better-auth lets them", async () => {
      const created = await asPerson(admin, "/teams", { json: { name: "  Design " } });
      expect(created.status).toBe(201);
      const team = created.data as OrganizationTeam;
      expect(team).toEqual({
        id: expect.any(String),
        organizationId: organization.id,
        name: "Design",
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      } satisfies OrganizationTeam);
      expect(await entries("team.created", team.id)).toEqual(byPerson(admin, team.id));
      await expectError(
        await asPerson(member, "/teams", { json: { name: "Nope" } }),
        403,
        "You are not allowed to create teams in this organization",
      );
      await expectError(
        await asPerson(member, `/teams/${team.id}`, { method: "PATCH", json: { name: "Nope" } }),
        403,
        "not allowed to delete or update teams",
      );
      const renamed = await asPerson(admin, `/teams/${team.id}`, { method: "PATCH", json: { name: "Product" } });
      expect(renamed.status).toBe(200);
      expect(renamed.data).toMatchObject({ id: team.id, name: "Product" });
      const added = await asPerson(admin, `/teams/${team.id}/members`, { json: { userId: member.id } });
      expect(added.status).toBe(200);
      expect(added.data).toEqual({
        id: expect.any(String),
        teamId: team.id,
        userId: member.id,
        createdAt: expect.any(String),
      } satisfies TeamMembership);
      await expectError(
        await asPerson(member, `/teams/${team.id}/members/${member.id}`, { method: "DELETE" }),
        403,
        "You are not allowed to remove a team member",
      );
      expect((await asPerson(admin, `/teams/${team.id}/members/${member.id}`, { method: "DELETE" })).status).toBe(204);
      expect((await asPerson(admin, `/teams/${team.id}`, { method: "DELETE" })).status).toBe(204);
      expect(await entries("team.removed", team.id)).toEqual(byPerson(admin, team.id));
      await expectError(await asPerson(admin, `/teams/${team.id}`, { method: "DELETE" }), 404, "team not found");
    });

    it("a key with teams:write does the same, audited with the key as actor and with its webhook events", async () => {
      const hook = await owner.client.post(path("/webhooks"), {
        url: `${app.config.baseUrl}/dev/webhooks`,
        events: ["team.created", "team.deleted"],
      });
      expect(hook.status).toBe(201);
      const key = await createKey(["teams:write"], "Provisioner");
      const created = await asKey(key, "/teams", { json: { name: "Platform" } });
      expect(created.status).toBe(201);
      const team = created.data as OrganizationTeam;
      expect(team).toMatchObject({ organizationId: organization.id, name: "Platform" });
      expect(await entries("team.created", team.id)).toEqual(byKey(key, team.id));
      await expectError(
        await asKey(key, "/teams", { json: { name: "platform " } }),
        400,
        "a team with this name already exists in this organization",
      );
      await expectError(await asKey(key, "/teams", { json: { name: "   " } }), 400, "name: Enter a team name");

      const renamed = await asKey(key, `/teams/${team.id}`, { method: "PATCH", json: { name: "Platform team" } });
      expect(renamed.status).toBe(200);
      expect(renamed.data).toMatchObject({ id: team.id, name: "Platform team" });
      expect(await entries("team.renamed", team.id)).toEqual(byKey(key, team.id));

      const { user: teamMate } = await newMember("team-mate");
      const added = await asKey(key, `/teams/${team.id}/members`, { json: { userId: teamMate.id } });
      expect(added.status).toBe(200);
      expect(added.data).toMatchObject({ teamId: team.id, userId: teamMate.id });
      const again = await asKey(key, `/teams/${team.id}/members`, { json: { userId: teamMate.id } });
      expect(again.data).toEqual(added.data);
      expect(await entries("team.member_added", teamMate.id)).toEqual(byKey(key, teamMate.id));
      const counted = await app.db
        .selectFrom("team")
        .select("memberCount")
        .where("id", "=", team.id)
        .executeTakeFirstOrThrow();
      expect(Number(counted.memberCount)).toBe(1);
      const teams = await asPerson(owner, "/teams");
      expect(teams.data.find((found: { id: string }) => found.id === team.id)?.members).toEqual([
        expect.objectContaining({ userId: teamMate.id }),
      ]);
      await expectError(
        await asKey(key, `/teams/${team.id}/members`, { json: { userId: outsider.id } }),
        400,
        NOT_A_MEMBER,
      );
      expect((await asKey(key, `/teams/${team.id}/members/${teamMate.id}`, { method: "DELETE" })).status).toBe(204);
      expect(await entries("team.member_removed", teamMate.id)).toEqual(byKey(key, teamMate.id));
      await expectError(
        await asKey(key, `/teams/${team.id}/members/${teamMate.id}`, { method: "DELETE" }),
        400,
        "User is not a member of the team",
      );

      expect((await asKey(key, `/teams/${team.id}`, { method: "DELETE" })).status).toBe(204);
      expect(await entries("team.removed", team.id)).toEqual(byKey(key, team.id));
      const events = await app.db
        .selectFrom("webhook_message")
        .select(["event_type", "payload"])
        .where("endpoint_id", "=", hook.data.id)
        .orderBy("seq")
        .execute();
      expect(events.map((event) => event.event_type)).toEqual(["team.created", "team.deleted"]);
      expect(JSON.parse(events[0]!.payload).data.target).toEqual({ type: "team", id: team.id, label: "Platform" });
    });

    it("a key keeps the last team; refused without the scope or on another organization's team", async () => {
      const solo = await createOrganizationWithOwner(owner, "Solo");
      const soloKey = (await owner.client.post(path("/api-keys", solo.id), { name: "solo", scopes: ["teams:write"] }))
        .data as CreatedApiKey;
      await expectError(
        await asKey(soloKey, `/teams/${solo.defaultTeamId}`, { method: "DELETE" }, solo.id),
        400,
        "unable to remove the last team",
      );
      const reader = await createKey(["teams:read"]);
      const missing = await asKey(reader, "/teams", { json: { name: "Nope" } });
      await expectError(missing, 403, SCOPE_MISSING);
      expect(missing.data.details).toEqual({ scope: "teams:write" });
      const writer = await createKey(["teams:write"]);
      for (const [suffix, options] of [
        [`/teams/${other.defaultTeamId}`, { method: "PATCH", json: { name: "Taken over" } }],
        [`/teams/${other.defaultTeamId}`, { method: "DELETE" }],
        [`/teams/${other.defaultTeamId}/members`, { json: { userId: member.id } }],
        [`/teams/${other.defaultTeamId}/members/${outsider.id}`, { method: "DELETE" }],
      ] as const) {
        await expectError(await asKey(writer, suffix, options), 404, "team not found");
      }
      await expectError(
        await asKey(writer, "/teams", { json: { name: "Elsewhere" } }, other.id),
        403,
        OTHER_ORGANIZATION,
      );
      const otherTeam = await app.db
        .selectFrom("team")
        .select("name")
        .where("id", "=", other.defaultTeamId)
        .executeTakeFirstOrThrow();
      expect(otherTeam.name).toBe("Other");
    });
  });

  describe("usage reports (usage:write)", () => {
    it("are audited with whoever reported them, key or person; a repeated idempotency key adds nothing", async () => {
      const key = await createKey(["usage:write"], "Metering");
      const body = { meter: "api_calls", quantity: 120, key: `batch-${organization.id}` };
      const reported = await asKey(key, "/billing/usage", { json: body });
      expect(reported.status).toBe(202);
      const repeated = await asKey(key, "/billing/usage", { json: body });
      expect(repeated.data).toEqual({ id: reported.data.id, duplicate: true });
      const byOwner = await owner.client.post(path("/billing/usage"), { meter: "api_calls", quantity: 3 });
      expect(byOwner.status).toBe(202);
      const rows = await app.db
        .selectFrom("audit_event")
        .select(["actor_type", "actor_id", "actor_label", "details"])
        .where("action", "=", "billing.usage_reported")
        .where("organization_id", "=", organization.id)
        .orderBy("created_at")
        .execute();
      expect(rows.map((row) => ({ ...row, details: JSON.parse(row.details ?? "null") }))).toEqual([
        {
          actor_type: "api_key",
          actor_id: key.id,
          actor_label: `Metering (${key.prefix}…)`,
          details: { meter: "api_calls", quantity: 120, key: body.key, eventId: reported.data.id },
        },
        {
          actor_type: "user",
          actor_id: owner.id,
          actor_label: owner.email,
          details: { meter: "api_calls", quantity: 3, key: null, eventId: byOwner.data.id },
        },
      ]);
    });
  });
});

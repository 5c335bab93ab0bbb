import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorOf, entry, findEntries, ok, onlyEntry } from "../../test/audit-harness";
import { sentBy, startAuditServer, stopAuditServer, withAgent } from "../../test/audit-harness";
import { addMember, createOrganizationWithOwner, createVerifiedUser, uniqueSlug } from "../../test/factories";
import type { TestApp } from "../../test/test-database";

/**
 * The audit log through the HTTP API: what each change to an organization, its members, invitations and teams
 * records (who, from where, about what), and the client address an entry keeps. One app on a real port serves
 * every test of the file.
 */

let server: TestApp;

beforeAll(async () => {
  ({ server } = await startAuditServer());
});

afterAll(stopAuditServer);

describe("what each change records", () => {
  it("organization created, updated (the fields that changed) and deleted", async () => {
    const owner = await createVerifiedUser(server, { label: "lifecycle" });
    const slug = uniqueSlug("lifecycle");
    const before = new Date().toISOString();
    const created = ok(
      await owner.client.post("/api/auth/organization/create", { name: "Lifecycle", slug }, withAgent),
    );
    const id = created.data.id as string;
    const createdEntry = await onlyEntry({ targetId: id, action: "organization.created" });
    expect(createdEntry).toEqual(
      entry({
        action: "organization.created",
        actor: actorOf(owner),
        target: { type: "organization", id, label: "Lifecycle" },
        organization: { id, name: "Lifecycle" },
        details: { slug },
        ...sentBy(owner),
      }),
    );
    expect(createdEntry.createdAt >= before && createdEntry.createdAt <= new Date().toISOString()).toBe(true);

    const newSlug = uniqueSlug("renamed");
    ok(
      await owner.client.post(
        "/api/auth/organization/update",
        { organizationId: id, data: { name: "Lifecycle renamed", slug: newSlug } },
        withAgent,
      ),
    );
    expect(await onlyEntry({ targetId: id, action: "organization.updated" })).toEqual(
      entry({
        action: "organization.updated",
        actor: actorOf(owner),
        target: { type: "organization", id, label: "Lifecycle renamed" },
        organization: { id, name: "Lifecycle renamed" },
        details: { name: { from: "Lifecycle", to: "Lifecycle renamed" }, slug: { from: slug, to: newSlug } },
        ...sentBy(owner),
      }),
    );
    ok(
      await owner.client.post(
        "/api/auth/organization/update",
        { organizationId: id, data: { metadata: { tier: "gold" } } },
        withAgent,
      ),
    );
    const updates = await findEntries({ targetId: id, action: "organization.updated" });
    expect(updates.map((update) => update.details)).toEqual(
      expect.arrayContaining([
        { metadata: "changed" },
        { name: { from: "Lifecycle", to: "Lifecycle renamed" }, slug: { from: slug, to: newSlug } },
      ]),
    );
    expect(updates).toHaveLength(2);

    ok(await owner.client.post("/api/auth/organization/delete", { organizationId: id }, withAgent));
    expect(await onlyEntry({ targetId: id, action: "organization.deleted" })).toEqual(
      entry({
        action: "organization.deleted",
        actor: actorOf(owner),
        target: { type: "organization", id, label: "Lifecycle renamed" },
        organization: { id, name: "Lifecycle renamed" },
        ...sentBy(owner),
      }),
    );
    // The entries outlive the organization.
    expect((await findEntries({ organizationId: id })).map((found) => found.action).sort()).toEqual([
      "organization.created",
      "organization.deleted",
      "organization.updated",
      "organization.updated",
    ]);
  });

  it("members: accepting an invitation (invitation.accepted and member.added), a role change, a removal, leaving", async () => {
    const [owner, joiner, leaver] = await Promise.all([
      createVerifiedUser(server, { label: "members-owner" }),
      createVerifiedUser(server, { label: "members-joiner" }),
      createVerifiedUser(server, { label: "members-leaver" }),
    ]);
    const organization = await createOrganizationWithOwner(owner, "Members audit");
    const inOrganization = { id: organization.id, name: "Members audit" };

    const invitation = ok(
      await owner.client.post(
        "/api/auth/organization/invite-member",
        { email: joiner.email, role: "member", organizationId: organization.id },
        withAgent,
      ),
    );
    const invitationId = invitation.data.id as string;
    const accepted = ok(
      await joiner.client.post("/api/auth/organization/accept-invitation", { invitationId }, withAgent),
    );
    const memberId = accepted.data.member.id as string;
    expect(await onlyEntry({ targetId: invitationId, action: "invitation.accepted" })).toEqual(
      entry({
        action: "invitation.accepted",
        actor: actorOf(joiner),
        target: { type: "invitation", id: invitationId, label: joiner.email },
        organization: inOrganization,
        details: { role: "member" },
        ...sentBy(joiner),
      }),
    );
    // Member entries are about the person (whose id every view filters by); the membership row's id is a detail.
    const aboutJoiner = { type: "user" as const, id: joiner.id, label: joiner.email };
    expect(await onlyEntry({ targetId: joiner.id, action: "member.added" })).toEqual(
      entry({
        action: "member.added",
        actor: actorOf(joiner),
        target: aboutJoiner,
        organization: inOrganization,
        details: { memberId, role: "member", invitationId },
        ...sentBy(joiner),
      }),
    );

    ok(
      await owner.client.post(
        "/api/auth/organization/update-member-role",
        { memberId, role: "admin", organizationId: organization.id },
        withAgent,
      ),
    );
    const roleChange = entry({
      action: "member.role_changed",
      actor: actorOf(owner),
      target: aboutJoiner,
      organization: inOrganization,
      details: { memberId, from: "member", to: "admin" },
      ...sentBy(owner),
    });
    expect(await onlyEntry({ targetId: joiner.id, action: "member.role_changed" })).toEqual(roleChange);
    // The same role again changes nothing and records nothing.
    ok(
      await owner.client.post(
        "/api/auth/organization/update-member-role",
        { memberId, role: "admin", organizationId: organization.id },
        withAgent,
      ),
    );
    expect(await findEntries({ targetId: joiner.id, action: "member.role_changed" })).toEqual([roleChange]);

    ok(
      await owner.client.post(
        "/api/auth/organization/remove-member",
        { memberIdOrEmail: memberId, organizationId: organization.id },
        withAgent,
      ),
    );
    expect(await onlyEntry({ targetId: joiner.id, action: "member.removed" })).toEqual(
      entry({
        action: "member.removed",
        actor: actorOf(owner),
        target: aboutJoiner,
        organization: inOrganization,
        details: { memberId, role: "admin" },
        ...sentBy(owner),
      }),
    );

    const leaverMemberId = await addMember(owner, organization.id, leaver, "admin");
    ok(await leaver.client.post("/api/auth/organization/leave", { organizationId: organization.id }, withAgent));
    expect(await onlyEntry({ targetId: leaver.id, action: "member.left" })).toEqual(
      entry({
        action: "member.left",
        actor: actorOf(leaver),
        target: { type: "user", id: leaver.id, label: leaver.email },
        organization: inOrganization,
        details: { memberId: leaverMemberId, role: "admin" },
        ...sentBy(leaver),
      }),
    );
  });

  it("invitations: sent, resent, rejected, canceled", async () => {
    const [owner, rejecter] = await Promise.all([
      createVerifiedUser(server, { label: "inv-owner" }),
      createVerifiedUser(server, { label: "inv-rejecter" }),
    ]);
    const organization = await createOrganizationWithOwner(owner, "Invitations audit");
    const inOrganization = { id: organization.id, name: "Invitations audit" };
    const email = `invited-${randomUUID()}@example.test`;

    const sent = ok(
      await owner.client.post(
        "/api/auth/organization/invite-member",
        { email, role: "admin", organizationId: organization.id },
        withAgent,
      ),
    );
    const invitationId = sent.data.id as string;
    const about = {
      target: { type: "invitation" as const, id: invitationId, label: email },
      organization: inOrganization,
      details: { role: "admin" },
    };
    expect(await onlyEntry({ targetId: invitationId, action: "invitation.sent" })).toEqual(
      entry({ action: "invitation.sent", actor: actorOf(owner), ...about, ...sentBy(owner) }),
    );

    const resent = ok(
      await owner.client.post(
        "/api/auth/organization/invite-member",
        { email, role: "admin", organizationId: organization.id, resend: true },
        withAgent,
      ),
    );
    expect(resent.data.id).toBe(invitationId);
    expect(await onlyEntry({ targetId: invitationId, action: "invitation.resent" })).toEqual(
      entry({ action: "invitation.resent", actor: actorOf(owner), ...about, ...sentBy(owner) }),
    );

    ok(await owner.client.post("/api/auth/organization/cancel-invitation", { invitationId }, withAgent));
    expect(await onlyEntry({ targetId: invitationId, action: "invitation.canceled" })).toEqual(
      entry({ action: "invitation.canceled", actor: actorOf(owner), ...about, ...sentBy(owner) }),
    );

    const toReject = ok(
      await owner.client.post("/api/auth/organization/invite-member", {
        email: rejecter.email,
        role: "member",
        organizationId: organization.id,
      }),
    );
    ok(
      await rejecter.client.post(
        "/api/auth/organization/reject-invitation",
        { invitationId: toReject.data.id },
        withAgent,
      ),
    );
    expect(await onlyEntry({ targetId: toReject.data.id, action: "invitation.rejected" })).toEqual(
      entry({
        action: "invitation.rejected",
        actor: actorOf(rejecter),
        target: { type: "invitation", id: toReject.data.id, label: rejecter.email },
        organization: inOrganization,
        details: { role: "member" },
        ...sentBy(rejecter),
      }),
    );
    // The invitation sent without a user agent records none.
    expect((await onlyEntry({ targetId: toReject.data.id, action: "invitation.sent" })).userAgent).toBeNull();
  });

  it("teams: created, renamed (nothing when the name is the same), members added (once) and removed, removed", async () => {
    const [owner, member] = await Promise.all([
      createVerifiedUser(server, { label: "teams-owner" }),
      createVerifiedUser(server, { label: "teams-member" }),
    ]);
    const organization = await createOrganizationWithOwner(owner, "Teams audit");
    await addMember(owner, organization.id, member);
    const inOrganization = { id: organization.id, name: "Teams audit" };

    const created = ok(
      await owner.client.post(
        "/api/auth/organization/create-team",
        { name: "Platform", organizationId: organization.id },
        withAgent,
      ),
    );
    const teamId = created.data.id as string;
    expect(await onlyEntry({ targetId: teamId, action: "team.created" })).toEqual(
      entry({
        action: "team.created",
        actor: actorOf(owner),
        target: { type: "team", id: teamId, label: "Platform" },
        organization: inOrganization,
        ...sentBy(owner),
      }),
    );

    ok(
      await owner.client.post(
        "/api/auth/organization/update-team",
        { teamId, data: { name: "Infrastructure", organizationId: organization.id } },
        withAgent,
      ),
    );
    const renamed = entry({
      action: "team.renamed",
      actor: actorOf(owner),
      target: { type: "team", id: teamId, label: "Infrastructure" },
      organization: inOrganization,
      details: { from: "Platform", to: "Infrastructure" },
      ...sentBy(owner),
    });
    expect(await onlyEntry({ targetId: teamId, action: "team.renamed" })).toEqual(renamed);
    ok(
      await owner.client.post(
        "/api/auth/organization/update-team",
        { teamId, data: { name: "Infrastructure", organizationId: organization.id } },
        withAgent,
      ),
    );
    expect(await findEntries({ targetId: teamId, action: "team.renamed" })).toEqual([renamed]);

    const aboutMember = {
      actor: actorOf(owner),
      target: { type: "user" as const, id: member.id, label: member.email },
      organization: inOrganization,
      details: { teamId, team: "Infrastructure" },
      ...sentBy(owner),
    };
    ok(
      await owner.client.post(
        "/api/auth/organization/add-team-member",
        { teamId, userId: member.id, organizationId: organization.id },
        withAgent,
      ),
    );
    expect(await onlyEntry({ targetId: member.id, action: "team.member_added" })).toEqual(
      entry({ action: "team.member_added", ...aboutMember }),
    );
    // Adding the same member again answers 200 and records nothing new.
    ok(
      await owner.client.post(
        "/api/auth/organization/add-team-member",
        { teamId, userId: member.id, organizationId: organization.id },
        withAgent,
      ),
    );
    expect(await findEntries({ targetId: member.id, action: "team.member_added" })).toHaveLength(1);

    ok(
      await owner.client.post(
        "/api/auth/organization/remove-team-member",
        { teamId, userId: member.id, organizationId: organization.id },
        withAgent,
      ),
    );
    expect(await onlyEntry({ targetId: member.id, action: "team.member_removed" })).toEqual(
      entry({ action: "team.member_removed", ...aboutMember }),
    );

    ok(
      await owner.client.post(
        "/api/auth/organization/remove-team",
        { teamId, organizationId: organization.id },
        withAgent,
      ),
    );
    expect(await onlyEntry({ targetId: teamId, action: "team.removed" })).toEqual(
      entry({
        action: "team.removed",
        actor: actorOf(owner),
        target: { type: "team", id: teamId, label: "Infrastructure" },
        organization: inOrganization,
        ...sentBy(owner),
      }),
    );
  });

  it("the client address is the one the app resolved (a forwarded address from an untrusted peer is ignored); long agents are cut at 500", async () => {
    const owner = await createVerifiedUser(server, { label: "address" });
    const organization = await createOrganizationWithOwner(owner, "Addresses");
    const longAgent = `Agent/${"x".repeat(600)}`;
    const created = ok(
      await owner.client.post(
        "/api/auth/organization/create-team",
        { name: "Forwarded", organizationId: organization.id },
        { headers: { "user-agent": longAgent, "x-forwarded-for": "203.0.113.77" } },
      ),
    );
    const recorded = await onlyEntry({ targetId: created.data.id, action: "team.created" });
    expect(recorded.ipAddress).toBe(owner.client.ip);
    expect(recorded.userAgent).toBe(longAgent.slice(0, 500));
  });
});

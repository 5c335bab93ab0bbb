import { randomUUID } from "node:crypto";
import { sql, type Insertable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, type AuditEntry, type AuditLogPage } from "../../../common/audit.schemas";
import { FREE_PLAN_LIMITS, type BillingOverview } from "../../../common/billing.schemas";
import { openDatabase } from "../../db/database";
import type { AuditEventTable } from "../../db/schema";
import { productIdOf, settleBilling, subscribe } from "../../test/billing";
import { addMember, createOrganizationWithOwner, createVerifiedUser, uniqueSlug, waitFor, type TestUser } from "../../test/factories";
import { createClient, expectError, type TestResponse } from "../../test/request";
import { createTestApp, createTestDatabase, type TestApp } from "../../test/test-database";
import { changePlatformRoleFromCommandLine } from "../admin";
import { purgeAuditLog } from "./index";

/**
 * The audit log through the HTTP API: what each change records (who, from where, about what), that a change and
 * its entry commit together or not at all, who may read which entries, the CSV export, that nothing edits or
 * deletes entries, and the retention purge. One app on a real port serves every test (billing needs the sandbox).
 */

let server: TestApp;
/** A platform admin (role set in the database): reads the whole log for the assertions. */
let platformAdmin: TestUser;

const AGENT = "AuditTest/1.0 (integration; +https://example.test)";
const withAgent = { headers: { "user-agent": AGENT } };
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CSV_HEADER =
  "time,action,actor_id,actor,impersonator_id,impersonator,target_type,target_id,target,organization_id,organization,ip_address,user_agent,reason,details";

beforeAll(async () => {
  server = await createTestApp({ listen: true });
  platformAdmin = await makePlatformAdmin("platform-admin");
});

afterAll(async () => {
  await server?.close();
});

async function makePlatformAdmin(label: string): Promise<TestUser> {
  const user = await createVerifiedUser(server, { label });
  await server.db.updateTable("user").set({ role: "admin" }).where("id", "=", user.id).execute();
  return user;
}

/** The whole log's entries matching `query`, newest first, as a platform admin reads them. */
async function findEntries(query: Record<string, string>): Promise<AuditEntry[]> {
  const response = await platformAdmin.client.get(`/api/admin/audit-log?${new URLSearchParams({ limit: "100", ...query })}`);
  expect(response.status).toBe(200);
  return (response.data as AuditLogPage).entries;
}

/** The one entry matching `query`. */
async function onlyEntry(query: Record<string, string>): Promise<AuditEntry> {
  const entries = await findEntries(query);
  expect(entries, JSON.stringify(query)).toHaveLength(1);
  return entries[0] as AuditEntry;
}

const actorOf = (user: TestUser) => ({ id: user.id, label: user.email });
/** Where a request of this user's browser came from, as the app resolved it: its socket address and the agent sent. */
const sentBy = (user: TestUser) => ({ ipAddress: user.client.ip, userAgent: AGENT });

/** An entry as the API answers it: every field given, the rest empty. */
function entry(fields: Pick<AuditEntry, "action" | "actor"> & Partial<AuditEntry>) {
  return {
    id: expect.any(String),
    createdAt: expect.stringMatching(ISO_INSTANT),
    impersonator: null,
    target: null,
    organization: null,
    ipAddress: null,
    userAgent: null,
    reason: null,
    details: null,
    ...fields,
  };
}

function ok(response: TestResponse): TestResponse {
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status} ${JSON.stringify(response.data)}`);
  return response;
}

/** A row of the log written directly, for dates, paging and exports the API cannot produce on demand. */
function auditRow(fields: Partial<Insertable<AuditEventTable>>): Insertable<AuditEventTable> {
  return {
    id: randomUUID(),
    created_at: new Date().toISOString(),
    action: "user.created",
    actor_id: null,
    actor_label: "seed",
    impersonator_id: null,
    impersonator_label: null,
    target_type: null,
    target_id: null,
    target_label: null,
    organization_id: null,
    organization_name: null,
    ip_address: null,
    user_agent: null,
    reason: null,
    details: null,
    ...fields,
  };
}

async function countRows(where: { action?: string; actorId?: string; organizationId?: string }): Promise<number> {
  let query = server.db.selectFrom("audit_event").select((eb) => eb.fn.countAll<number | string>().as("count"));
  if (where.action) query = query.where("action", "=", where.action);
  if (where.actorId) query = query.where("actor_id", "=", where.actorId);
  if (where.organizationId) query = query.where("organization_id", "=", where.organizationId);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

/**
 * Runs `run` while the database refuses inserts into `table` where `column` = `value` (a trigger, as a constraint
 * or an outage would), and removes the trigger afterwards, whatever happened.
 */
async function withRefusedInserts<T>(table: "member" | "audit_event", column: string, value: string, run: () => Promise<T>): Promise<T> {
  const trigger = `audit_test_refuse_${table}`;
  if (server.dialect === "postgres") {
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION ${trigger}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION '% insert refused for the test', TG_TABLE_NAME; END; $$ LANGUAGE plpgsql`,
      )
      .execute(server.db);
    await sql
      .raw(`CREATE TRIGGER ${trigger} BEFORE INSERT ON "${table}" FOR EACH ROW WHEN (NEW."${column}" = '${value}') EXECUTE FUNCTION ${trigger}()`)
      .execute(server.db);
  } else {
    await sql
      .raw(
        `CREATE TRIGGER ${trigger} BEFORE INSERT ON "${table}" WHEN NEW."${column}" = '${value}' BEGIN SELECT RAISE(ABORT, '${table} insert refused for the test'); END`,
      )
      .execute(server.db);
  }
  try {
    return await run();
  } finally {
    await sql.raw(server.dialect === "postgres" ? `DROP TRIGGER IF EXISTS ${trigger} ON "${table}"` : `DROP TRIGGER IF EXISTS ${trigger}`).execute(server.db);
  }
}

/** A minimal RFC 4180 reader: fields, quoted fields with doubled quotes and line breaks, CRLF between records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      index += 1;
    } else field += char;
  }
  if (field !== "" || record.length > 0) records.push([...record, field]);
  return records;
}

/** The day the server names a download after, checked around the request so midnight cannot flake it. */
async function expectCsvDownload(request: () => Promise<TestResponse>, name: string): Promise<string> {
  const dayBefore = new Date().toISOString().slice(0, 10);
  const response = await request();
  const dayAfter = new Date().toISOString().slice(0, 10);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect([dayBefore, dayAfter].map((day) => `attachment; filename="${name}-audit-log-${day}.csv"`)).toContain(response.headers.get("content-disposition"));
  return typeof response.data === "string" ? response.data : await response.text();
}

describe("what each change records", () => {
  it("organization created, updated (the fields that changed) and deleted", async () => {
    const owner = await createVerifiedUser(server, { label: "lifecycle" });
    const slug = uniqueSlug("lifecycle");
    const before = new Date().toISOString();
    const created = ok(await owner.client.post("/api/auth/organization/create", { name: "Lifecycle", slug }, withAgent));
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
    ok(await owner.client.post("/api/auth/organization/update", { organizationId: id, data: { name: "Lifecycle renamed", slug: newSlug } }, withAgent));
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
    ok(await owner.client.post("/api/auth/organization/update", { organizationId: id, data: { metadata: { tier: "gold" } } }, withAgent));
    const updates = await findEntries({ targetId: id, action: "organization.updated" });
    expect(updates.map((update) => update.details)).toEqual(
      expect.arrayContaining([{ metadata: "changed" }, { name: { from: "Lifecycle", to: "Lifecycle renamed" }, slug: { from: slug, to: newSlug } }]),
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
      await owner.client.post("/api/auth/organization/invite-member", { email: joiner.email, role: "member", organizationId: organization.id }, withAgent),
    );
    const invitationId = invitation.data.id as string;
    const accepted = ok(await joiner.client.post("/api/auth/organization/accept-invitation", { invitationId }, withAgent));
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

    ok(await owner.client.post("/api/auth/organization/update-member-role", { memberId, role: "admin", organizationId: organization.id }, withAgent));
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
    ok(await owner.client.post("/api/auth/organization/update-member-role", { memberId, role: "admin", organizationId: organization.id }, withAgent));
    expect(await findEntries({ targetId: joiner.id, action: "member.role_changed" })).toEqual([roleChange]);

    ok(await owner.client.post("/api/auth/organization/remove-member", { memberIdOrEmail: memberId, organizationId: organization.id }, withAgent));
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
    const [owner, rejecter] = await Promise.all([createVerifiedUser(server, { label: "inv-owner" }), createVerifiedUser(server, { label: "inv-rejecter" })]);
    const organization = await createOrganizationWithOwner(owner, "Invitations audit");
    const inOrganization = { id: organization.id, name: "Invitations audit" };
    const email = `invited-${randomUUID()}@example.test`;

    const sent = ok(await owner.client.post("/api/auth/organization/invite-member", { email, role: "admin", organizationId: organization.id }, withAgent));
    const invitationId = sent.data.id as string;
    const about = { target: { type: "invitation" as const, id: invitationId, label: email }, organization: inOrganization, details: { role: "admin" } };
    expect(await onlyEntry({ targetId: invitationId, action: "invitation.sent" })).toEqual(
      entry({ action: "invitation.sent", actor: actorOf(owner), ...about, ...sentBy(owner) }),
    );

    const resent = ok(
      await owner.client.post("/api/auth/organization/invite-member", { email, role: "admin", organizationId: organization.id, resend: true }, withAgent),
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
      await owner.client.post("/api/auth/organization/invite-member", { email: rejecter.email, role: "member", organizationId: organization.id }),
    );
    ok(await rejecter.client.post("/api/auth/organization/reject-invitation", { invitationId: toReject.data.id }, withAgent));
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
    const [owner, member] = await Promise.all([createVerifiedUser(server, { label: "teams-owner" }), createVerifiedUser(server, { label: "teams-member" })]);
    const organization = await createOrganizationWithOwner(owner, "Teams audit");
    await addMember(owner, organization.id, member);
    const inOrganization = { id: organization.id, name: "Teams audit" };

    const created = ok(await owner.client.post("/api/auth/organization/create-team", { name: "Platform", organizationId: organization.id }, withAgent));
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

    ok(await owner.client.post("/api/auth/organization/update-team", { teamId, data: { name: "Infrastructure", organizationId: organization.id } }, withAgent));
    const renamed = entry({
      action: "team.renamed",
      actor: actorOf(owner),
      target: { type: "team", id: teamId, label: "Infrastructure" },
      organization: inOrganization,
      details: { from: "Platform", to: "Infrastructure" },
      ...sentBy(owner),
    });
    expect(await onlyEntry({ targetId: teamId, action: "team.renamed" })).toEqual(renamed);
    ok(await owner.client.post("/api/auth/organization/update-team", { teamId, data: { name: "Infrastructure", organizationId: organization.id } }, withAgent));
    expect(await findEntries({ targetId: teamId, action: "team.renamed" })).toEqual([renamed]);

    const aboutMember = {
      actor: actorOf(owner),
      target: { type: "user" as const, id: member.id, label: member.email },
      organization: inOrganization,
      details: { teamId, team: "Infrastructure" },
      ...sentBy(owner),
    };
    ok(await owner.client.post("/api/auth/organization/add-team-member", { teamId, userId: member.id, organizationId: organization.id }, withAgent));
    expect(await onlyEntry({ targetId: member.id, action: "team.member_added" })).toEqual(entry({ action: "team.member_added", ...aboutMember }));
    // Adding the same member again answers 200 and records nothing new.
    ok(await owner.client.post("/api/auth/organization/add-team-member", { teamId, userId: member.id, organizationId: organization.id }, withAgent));
    expect(await findEntries({ targetId: member.id, action: "team.member_added" })).toHaveLength(1);

    ok(await owner.client.post("/api/auth/organization/remove-team-member", { teamId, userId: member.id, organizationId: organization.id }, withAgent));
    expect(await onlyEntry({ targetId: member.id, action: "team.member_removed" })).toEqual(entry({ action: "team.member_removed", ...aboutMember }));

    ok(await owner.client.post("/api/auth/organization/remove-team", { teamId, organizationId: organization.id }, withAgent));
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

  it("each platform admin action: user created, role changed, banned, unbanned, password set, a session and all sessions revoked, deleted", async () => {
    const admin = platformAdmin;
    const byAdmin = { actor: actorOf(admin), ...sentBy(admin) };
    const aboutUser = (user: { id: string; email: string }) => ({ type: "user" as const, id: user.id, label: user.email });

    const email = `created-${randomUUID()}@example.test`;
    const created = ok(await admin.client.post("/api/auth/admin/create-user", { email, name: "Created By Admin", password: `Pw-${randomUUID()}` }, withAgent));
    const createdUser = { id: created.data.user.id as string, email };
    expect(await onlyEntry({ targetId: createdUser.id, action: "user.created" })).toEqual(
      entry({ action: "user.created", ...byAdmin, target: aboutUser(createdUser), details: { role: "user", password: "set" } }),
    );
    const invitedEmail = `invited-user-${randomUUID()}@example.test`;
    const invited = ok(await admin.client.post("/api/auth/admin/create-user", { email: invitedEmail, name: "Invited By Admin", role: "admin" }, withAgent));
    expect(await onlyEntry({ targetId: invited.data.user.id, action: "user.created" })).toEqual(
      entry({
        action: "user.created",
        ...byAdmin,
        target: aboutUser({ id: invited.data.user.id, email: invitedEmail }),
        details: { role: "admin", password: "invited" },
      }),
    );

    const target = await createVerifiedUser(server, { label: "admin-target" });
    ok(await admin.client.post("/api/auth/admin/set-role", { userId: target.id, role: "admin" }, withAgent));
    ok(await admin.client.post("/api/auth/admin/set-role", { userId: target.id, role: "user" }, withAgent));
    const roleChanges = await findEntries({ targetId: target.id, action: "user.role_changed" });
    expect(roleChanges).toEqual(
      expect.arrayContaining([
        entry({ action: "user.role_changed", ...byAdmin, target: aboutUser(target), details: { from: "user", to: "admin" } }),
        entry({ action: "user.role_changed", ...byAdmin, target: aboutUser(target), details: { from: "admin", to: "user" } }),
      ]),
    );
    expect(roleChanges).toHaveLength(2);

    ok(await admin.client.post("/api/auth/admin/ban-user", { userId: target.id, banReason: "Spam, reported twice", banExpiresIn: 3600 }, withAgent));
    const banned = await server.db.selectFrom("user").select("banExpires").where("id", "=", target.id).executeTakeFirstOrThrow();
    const expiresAt = new Date(banned.banExpires as string | Date).toISOString();
    expect(Math.abs(Date.parse(expiresAt) - (Date.now() + 3_600_000))).toBeLessThan(60_000);
    expect(await onlyEntry({ targetId: target.id, action: "user.banned" })).toEqual(
      entry({ action: "user.banned", ...byAdmin, target: aboutUser(target), reason: "Spam, reported twice", details: { expiresAt } }),
    );
    ok(await admin.client.post("/api/auth/admin/unban-user", { userId: target.id }, withAgent));
    expect(await onlyEntry({ targetId: target.id, action: "user.unbanned" })).toEqual(
      entry({ action: "user.unbanned", ...byAdmin, target: aboutUser(target) }),
    );

    ok(await admin.client.post("/api/auth/admin/set-user-password", { userId: target.id, newPassword: `Pw-${randomUUID()}` }, withAgent));
    expect(await onlyEntry({ targetId: target.id, action: "user.password_set" })).toEqual(
      entry({ action: "user.password_set", ...byAdmin, target: aboutUser(target) }),
    );

    const sessionOwner = await createVerifiedUser(server, { label: "sessions" });
    const session = await server.db.selectFrom("session").select(["id", "token"]).where("userId", "=", sessionOwner.id).executeTakeFirstOrThrow();
    ok(await admin.client.post("/api/auth/admin/revoke-user-session", { sessionToken: session.token }, withAgent));
    expect(await onlyEntry({ targetId: sessionOwner.id, action: "user.session_revoked" })).toEqual(
      entry({ action: "user.session_revoked", ...byAdmin, target: aboutUser(sessionOwner), details: { sessionId: session.id } }),
    );
    ok(await admin.client.post("/api/auth/admin/revoke-user-sessions", { userId: sessionOwner.id }, withAgent));
    expect(await onlyEntry({ targetId: sessionOwner.id, action: "user.sessions_revoked" })).toEqual(
      entry({ action: "user.sessions_revoked", ...byAdmin, target: aboutUser(sessionOwner) }),
    );

    ok(await admin.client.post("/api/auth/admin/remove-user", { userId: sessionOwner.id }, withAgent));
    expect(await onlyEntry({ targetId: sessionOwner.id, action: "user.deleted" })).toEqual(
      entry({ action: "user.deleted", ...byAdmin, target: aboutUser(sessionOwner) }),
    );
    // The entries about a deleted user stay, with the e-mail they had.
    expect((await findEntries({ targetId: sessionOwner.id })).map((found) => found.action).sort()).toEqual([
      "user.deleted",
      "user.session_revoked",
      "user.sessions_revoked",
    ]);
  });

  it("impersonation: started and stopped by the admin; what is done meanwhile is the user's, with the admin as impersonator", async () => {
    const admin = await makePlatformAdmin("impersonator");
    const user = await createVerifiedUser(server, { label: "impersonated" });
    const organization = await createOrganizationWithOwner(user, "Impersonated org");

    ok(await admin.client.post("/api/auth/admin/impersonate-user", { userId: user.id, reason: "Ticket #42: cannot rename team" }, withAgent));
    expect(await onlyEntry({ targetId: user.id, action: "user.impersonation_started" })).toEqual(
      entry({
        action: "user.impersonation_started",
        actor: actorOf(admin),
        target: { type: "user", id: user.id, label: user.email },
        reason: "Ticket #42: cannot rename team",
        ...sentBy(admin),
      }),
    );
    // The admin's browser now holds the user's session; the platform's log is closed to it meanwhile.
    await expectError(await admin.client.get("/api/admin/audit-log"), 403, "You are not allowed to access resource: auditLog");

    const team = ok(
      await admin.client.post("/api/auth/organization/create-team", { name: "Made while impersonating", organizationId: organization.id }, withAgent),
    );
    const teamEntry = entry({
      action: "team.created",
      actor: actorOf(user),
      impersonator: { id: admin.id, label: admin.email },
      target: { type: "team", id: team.data.id, label: "Made while impersonating" },
      organization: { id: organization.id, name: "Impersonated org" },
      ...sentBy(admin),
    });
    expect(await onlyEntry({ targetId: team.data.id, action: "team.created" })).toEqual(teamEntry);
    // An actor filter finds what an admin did as someone else too.
    expect(await findEntries({ actorId: admin.id, action: "team.created" })).toEqual([teamEntry]);

    ok(await admin.client.post("/api/auth/admin/stop-impersonating", {}, withAgent));
    expect(await onlyEntry({ targetId: user.id, action: "user.impersonation_stopped" })).toEqual(
      entry({
        action: "user.impersonation_stopped",
        actor: actorOf(admin),
        target: { type: "user", id: user.id, label: user.email },
        ...sentBy(admin),
      }),
    );
    expect((await admin.client.get("/api/admin/audit-log")).status).toBe(200);
  });

  it("billing: checkout started, plan changed, subscription canceled and resumed, seats changed, a refund", async () => {
    const owner = await createVerifiedUser(server, { label: "billing-owner" });
    const organization = await createOrganizationWithOwner(owner, "Billing audit");
    const inOrganization = { id: organization.id, name: "Billing audit" };
    const monthly = await productIdOf(owner.client, "pro");
    const yearly = await productIdOf(owner.client, "pro", "year");
    await subscribe(server, owner, organization.id, { productId: monthly });
    expect(await onlyEntry({ organizationId: organization.id, action: "billing.checkout_started" })).toEqual(
      // The factory's checkout sends no user agent.
      entry({
        action: "billing.checkout_started",
        actor: actorOf(owner),
        organization: inOrganization,
        details: { plan: "Pro", productId: monthly },
        ipAddress: owner.client.ip,
      }),
    );
    const base = `/api/organizations/${organization.id}/billing`;
    const overview = ok(await owner.client.get(base)).data as BillingOverview;
    const subscriptionId = overview.subscription?.id as string;
    const bySubscription = {
      actor: actorOf(owner),
      target: { type: "subscription" as const, id: subscriptionId, label: "Pro" },
      organization: inOrganization,
      ...sentBy(owner),
    };

    ok(await owner.client.post(`${base}/subscription`, { productId: yearly }, withAgent));
    expect(await onlyEntry({ targetId: subscriptionId, action: "billing.plan_changed" })).toEqual(
      entry({ action: "billing.plan_changed", ...bySubscription, details: { from: "Pro", to: "Pro" } }),
    );
    ok(await owner.client.post(`${base}/subscription`, { cancelAtPeriodEnd: true, cancellationReason: "too_expensive" }, withAgent));
    expect(await onlyEntry({ targetId: subscriptionId, action: "billing.subscription_canceled" })).toEqual(
      entry({ action: "billing.subscription_canceled", ...bySubscription, details: { reason: "too_expensive" } }),
    );
    ok(await owner.client.post(`${base}/subscription`, { cancelAtPeriodEnd: false }, withAgent));
    expect(await onlyEntry({ targetId: subscriptionId, action: "billing.subscription_resumed" })).toEqual(
      entry({ action: "billing.subscription_resumed", ...bySubscription }),
    );
    await settleBilling(server);

    const order = overview.orders[0];
    expect(order).toBeDefined();
    const refunded = await platformAdmin.client.post(
      `/api/admin/billing/organizations/${organization.id}/refunds`,
      { orderId: order?.id, amount: 500, reason: "customer_request", comment: "Goodwill, after the outage" },
      withAgent,
    );
    ok(refunded);
    expect(await onlyEntry({ targetId: order?.id as string, action: "billing.refund_issued" })).toEqual(
      entry({
        action: "billing.refund_issued",
        actor: actorOf(platformAdmin),
        target: { type: "order", id: order?.id as string, label: order?.invoiceNumber ?? (order?.id as string) },
        organization: inOrganization,
        reason: "Goodwill, after the outage",
        details: { amount: 500, currency: "usd", reason: "customer_request" },
        ...sentBy(platformAdmin),
      }),
    );
    await settleBilling(server);

    // A per-seat plan's seat count.
    const seated = await createOrganizationWithOwner(owner, "Seats audit");
    await subscribe(server, owner, seated.id, { productId: await productIdOf(owner.client, "team"), seats: 2 });
    const seatedSubscription = (ok(await owner.client.get(`/api/organizations/${seated.id}/billing`)).data as BillingOverview).subscription?.id as string;
    ok(await owner.client.post(`/api/organizations/${seated.id}/billing/subscription`, { seats: 3 }, withAgent));
    expect(await onlyEntry({ targetId: seatedSubscription, action: "billing.seats_changed" })).toEqual(
      entry({
        action: "billing.seats_changed",
        actor: actorOf(owner),
        target: { type: "subscription", id: seatedSubscription, label: "Team" },
        organization: { id: seated.id, name: "Seats audit" },
        details: { from: 2, to: 3 },
        ...sentBy(owner),
      }),
    );
    await settleBilling(server);
  });

  it("the command line's grant and revoke: actor 'command line', no address; a grant that changes nothing records nothing", async () => {
    const user = await createVerifiedUser(server, { label: "cli" });
    const granted = await changePlatformRoleFromCommandLine(server.db, server.config.adminUserIds, { action: "grant", email: ` ${user.email.toUpperCase()} ` });
    expect(granted).toEqual({ email: user.email, from: "user", to: "admin", changed: true });
    const commandLine = { actor: { id: null, label: "command line" }, target: { type: "user" as const, id: user.id, label: user.email } };
    expect(await onlyEntry({ targetId: user.id, action: "user.role_changed" })).toEqual(
      entry({ action: "user.role_changed", ...commandLine, details: { from: "user", to: "admin" } }),
    );
    expect(await changePlatformRoleFromCommandLine(server.db, server.config.adminUserIds, { action: "grant", email: user.email })).toMatchObject({
      changed: false,
    });
    expect(await findEntries({ targetId: user.id, action: "user.role_changed" })).toHaveLength(1);

    // The change and its entry are one transaction: an entry that cannot be written leaves the role as it was.
    await withRefusedInserts("audit_event", "target_id", user.id, async () => {
      await expect(changePlatformRoleFromCommandLine(server.db, server.config.adminUserIds, { action: "revoke", email: user.email })).rejects.toThrow(
        "audit_event insert refused for the test",
      );
    });
    expect((await server.db.selectFrom("user").select("role").where("id", "=", user.id).executeTakeFirstOrThrow()).role).toBe("admin");

    await changePlatformRoleFromCommandLine(server.db, server.config.adminUserIds, { action: "revoke", email: user.email });
    const changes = await findEntries({ targetId: user.id, action: "user.role_changed" });
    expect(changes).toHaveLength(2);
    expect(changes).toEqual(expect.arrayContaining([entry({ action: "user.role_changed", ...commandLine, details: { from: "admin", to: "user" } })]));
  });
});

describe("a change and its entry commit together, or neither does", () => {
  it("refused changes record nothing: the last owner leaving, an admin banning themself, a plan limit, an unchanged plan", async () => {
    const owner = await createVerifiedUser(server, { label: "refused-owner" });
    const organization = await createOrganizationWithOwner(owner, "Refusals");
    await expectError(
      await owner.client.post("/api/auth/organization/leave", { organizationId: organization.id }, withAgent),
      400,
      "you cannot leave the organization as the only owner",
    );
    expect(await countRows({ action: "member.left", organizationId: organization.id })).toBe(0);

    await expectError(
      await platformAdmin.client.post("/api/auth/admin/ban-user", { userId: platformAdmin.id, banReason: "Testing myself" }, withAgent),
      400,
      "You cannot ban yourself",
    );
    await expectError(
      await platformAdmin.client.post("/api/auth/admin/set-role", { userId: platformAdmin.id, role: "user" }, withAgent),
      400,
      "You cannot change your own platform role",
    );
    expect(await findEntries({ targetId: platformAdmin.id })).toEqual([]);

    for (let index = 1; index < (FREE_PLAN_LIMITS.teams ?? 0); index += 1) {
      ok(await owner.client.post("/api/auth/organization/create-team", { name: `Team ${index}`, organizationId: organization.id }));
    }
    await expectError(
      await owner.client.post("/api/auth/organization/create-team", { name: "One too many", organizationId: organization.id }, withAgent),
      403,
      `The Free plan includes ${FREE_PLAN_LIMITS.teams} teams. Upgrade the plan to create more.`,
    );
    const teamEntries = await findEntries({ organizationId: organization.id, action: "team.created" });
    expect(teamEntries.map((found) => found.target?.label).sort()).toEqual(
      Array.from({ length: (FREE_PLAN_LIMITS.teams ?? 0) - 1 }, (_, index) => `Team ${index + 1}`),
    );

    const billed = await createOrganizationWithOwner(owner, "Refused plan");
    const monthly = await productIdOf(owner.client, "pro");
    await subscribe(server, owner, billed.id, { productId: monthly });
    await expectError(
      await owner.client.post(`/api/organizations/${billed.id}/billing/subscription`, { productId: monthly }, withAgent),
      400,
      "The organization is already on this plan.",
    );
    expect((await findEntries({ organizationId: billed.id })).map((found) => found.action).sort()).toEqual([
      "billing.checkout_started",
      "organization.created",
    ]);
  });

  it("a change the database fails halfway records nothing: an organization whose owner membership cannot be written", async () => {
    const victim = await createVerifiedUser(server, { label: "half-made" });
    const slug = uniqueSlug("half-made");
    const response = await withRefusedInserts("member", "userId", victim.id, () =>
      victim.client.post("/api/auth/organization/create", { name: "Half made", slug }, withAgent),
    );
    await expectError(response, 500, "Something went wrong on our side. Please try again.");
    expect(await server.db.selectFrom("organization").select("id").where("slug", "=", slug).execute()).toEqual([]);
    expect(await countRows({ actorId: victim.id })).toBe(0);
  });

  it("an entry that cannot be written undoes the change: the team is not created and the client is told", async () => {
    const owner = await createVerifiedUser(server, { label: "unrecorded" });
    const organization = await createOrganizationWithOwner(owner, "Unrecorded");
    const teamsBefore = await server.db.selectFrom("team").select("name").where("organizationId", "=", organization.id).execute();

    const response = await withRefusedInserts("audit_event", "action", "team.created", () =>
      owner.client.post("/api/auth/organization/create-team", { name: "Unrecorded team", organizationId: organization.id }, withAgent),
    );
    await expectError(response, 500, "Something went wrong on our side. Please try again.");
    expect(await server.db.selectFrom("team").select("name").where("organizationId", "=", organization.id).execute()).toEqual(teamsBefore);
    expect(await countRows({ action: "team.created", organizationId: organization.id })).toBe(0);

    // Once entries can be written again, the same request succeeds and is recorded.
    const retried = ok(await owner.client.post("/api/auth/organization/create-team", { name: "Unrecorded team", organizationId: organization.id }, withAgent));
    expect((await onlyEntry({ targetId: retried.data.id, action: "team.created" })).target?.label).toBe("Unrecorded team");
  });
});

describe("who reads which entries", () => {
  let owner: TestUser;
  let orgAdmin: TestUser;
  let member: TestUser;
  let otherOwner: TestUser;
  let organizationId: string;
  let otherOrganizationId: string;

  beforeAll(async () => {
    [owner, orgAdmin, member, otherOwner] = await Promise.all([
      createVerifiedUser(server, { label: "read-owner" }),
      createVerifiedUser(server, { label: "read-admin" }),
      createVerifiedUser(server, { label: "read-member" }),
      createVerifiedUser(server, { label: "read-other" }),
    ]);
    organizationId = (await createOrganizationWithOwner(owner, "Readable")).id;
    otherOrganizationId = (await createOrganizationWithOwner(otherOwner, "Other readable")).id;
    await addMember(owner, organizationId, orgAdmin, "admin");
    await addMember(owner, organizationId, member, "member");
    // The other organization's admin is an admin here too: the organization in the path decides, never the query.
    await addMember(otherOwner, otherOrganizationId, orgAdmin, "admin");
  });

  it("an organization admin sees that organization's entries only, whatever organizationId the query names", async () => {
    const all = await findEntries({ organizationId });
    expect(all.length).toBeGreaterThanOrEqual(7);
    for (const path of [
      `/api/organizations/${organizationId}/audit-log`,
      `/api/organizations/${organizationId}/audit-log?organizationId=${otherOrganizationId}`,
    ]) {
      const page = (await orgAdmin.client.get(path)).data as AuditLogPage;
      expect(page).toMatchObject({ total: all.length, limit: 25, offset: 0 });
      expect(page.entries).toEqual(all);
    }
    const filtered = ok(await orgAdmin.client.get(`/api/organizations/${organizationId}/audit-log?action=member.added&limit=10`)).data as AuditLogPage;
    expect(filtered.total).toBe(2);
    expect(filtered.entries.map((found) => found.target?.label).sort()).toEqual([orgAdmin.email, member.email].sort());
    expect(ok(await owner.client.get(`/api/organizations/${organizationId}/audit-log`)).data.total).toBe(all.length);
  });

  it("an admin of another organization, a member and an anonymous caller are refused", async () => {
    await expectError(await otherOwner.client.get(`/api/organizations/${organizationId}/audit-log`), 403, "user is not a member of the organization");
    await expectError(await otherOwner.client.get(`/api/organizations/${organizationId}/audit-log/export`), 403, "user is not a member of the organization");
    await expectError(await member.client.get(`/api/organizations/${organizationId}/audit-log`), 403, "You are not allowed to access resource: auditLog");
    await expectError(
      await member.client.get(`/api/organizations/${organizationId}/audit-log/export`),
      403,
      "You are not allowed to access resource: auditLog",
    );
    await expectError(await createClient(server).get(`/api/organizations/${organizationId}/audit-log`), 401, "Unauthorized");
    // The platform's view is for platform admins only.
    await expectError(await owner.client.get("/api/admin/audit-log"), 403, "You are not allowed to access resource: auditLog");
    await expectError(await owner.client.get("/api/admin/audit-log/export"), 403, "You are not allowed to access resource: auditLog");
    await expectError(await createClient(server).get("/api/admin/audit-log"), 401, "Unauthorized");
  });

  it("a platform admin filters the whole log by action, actor, target and organization", async () => {
    const all = await findEntries({ organizationId });
    expect(all.every((found) => found.organization?.id === organizationId)).toBe(true);
    const added = await findEntries({ organizationId, action: "member.added" });
    expect(added.map((found) => found.actor.id).sort()).toEqual([orgAdmin.id, member.id].sort());
    const byAdmin = await findEntries({ actorId: orgAdmin.id });
    expect(byAdmin.map((found) => `${found.action} ${found.organization?.id}`).sort()).toEqual(
      [
        `invitation.accepted ${organizationId}`,
        `invitation.accepted ${otherOrganizationId}`,
        `member.added ${organizationId}`,
        `member.added ${otherOrganizationId}`,
      ].sort(),
    );
    const invitationId = added.find((found) => found.actor.id === member.id)?.details?.invitationId as string;
    expect((await findEntries({ targetId: invitationId })).map((found) => found.action).sort()).toEqual(["invitation.accepted", "invitation.sent"]);
    expect((await findEntries({ targetId: member.id, organizationId })).map((found) => found.action)).toEqual(["member.added"]);
    expect(await findEntries({ organizationId, actorId: member.id, action: "invitation.sent" })).toEqual([]);
  });

  it("days filter from and to, both included (UTC); pages come newest first with the total", async () => {
    const organization = `dated-${randomUUID()}`;
    const at = (instant: string) => auditRow({ created_at: instant, organization_id: organization, target_type: "user", target_id: instant });
    const instants = [
      "2001-02-28T23:59:59.999Z",
      "2001-03-01T00:00:00.000Z",
      "2001-03-01T12:00:00.000Z",
      "2001-03-02T23:59:59.999Z",
      "2001-03-03T00:00:00.000Z",
    ];
    await server.db.insertInto("audit_event").values(instants.map(at)).execute();
    const targets = async (query: Record<string, string>) => (await findEntries({ organizationId: organization, ...query })).map((found) => found.target?.id);
    expect(await targets({ from: "2001-03-01", to: "2001-03-02" })).toEqual([
      "2001-03-02T23:59:59.999Z",
      "2001-03-01T12:00:00.000Z",
      "2001-03-01T00:00:00.000Z",
    ]);
    expect(await targets({ from: "2001-03-01", to: "2001-03-01" })).toEqual(["2001-03-01T12:00:00.000Z", "2001-03-01T00:00:00.000Z"]);
    expect(await targets({ from: "2001-03-02" })).toEqual(["2001-03-03T00:00:00.000Z", "2001-03-02T23:59:59.999Z"]);
    expect(await targets({ to: "2001-02-28" })).toEqual(["2001-02-28T23:59:59.999Z"]);
    expect(await targets({ from: "2001-03-04" })).toEqual([]);

    const paged = `paged-${randomUUID()}`;
    const rows = Array.from({ length: 12 }, (_, index) =>
      auditRow({
        created_at: new Date(Date.UTC(2002, 0, 1, 0, index)).toISOString(),
        organization_id: paged,
        target_type: "user",
        target_id: `entry-${index}`,
      }),
    );
    await server.db.insertInto("audit_event").values(rows).execute();
    const page = async (query: string) => ok(await platformAdmin.client.get(`/api/admin/audit-log?organizationId=${paged}&${query}`)).data as AuditLogPage;
    const first = await page("limit=10&offset=0");
    expect(first).toMatchObject({ total: 12, limit: 10, offset: 0 });
    expect(first.entries.map((found) => found.target?.id)).toEqual(Array.from({ length: 10 }, (_, index) => `entry-${11 - index}`));
    const second = await page("limit=10&offset=10");
    expect(second).toMatchObject({ total: 12, limit: 10, offset: 10 });
    expect(second.entries.map((found) => found.target?.id)).toEqual(["entry-1", "entry-0"]);
    expect(await page("limit=10&offset=20")).toEqual({ entries: [], total: 12, limit: 10, offset: 20 });
    expect((await page("")).limit).toBe(25);
  });

  it("refuses a bad query with 400", async () => {
    const bad = async (query: string) => platformAdmin.client.get(`/api/admin/audit-log?${query}`);
    await expectError(await bad("limit=7"), 400, "limit: Use a page size of 10, 25, 50, 100");
    await expectError(await bad("from=2024-02-30x"), 400, "from: Use a date as YYYY-MM-DD; from: Use a real date");
    await expectError(await bad("from=2024-13-45"), 400, "from: Use a real date");
    await expectError(await bad("from=2024-05-02&to=2024-05-01"), 400, "to: The start date must be on or before the end date");
    await expectError(
      await bad("action=user.exploded"),
      400,
      `action: Invalid option: expected one of ${AUDIT_ACTIONS.map((action) => `"${action}"`).join("|")}`,
    );
    await expectError(await bad("offset=-1"), 400, "offset: Too small: expected number to be >=0");
    await expectError(await bad(`actorId=${"a".repeat(1000)}`), 400, "actorId: Use at most 255 characters");
    await expectError(await owner.client.get(`/api/organizations/${organizationId}/audit-log?limit=7`), 400, "limit: Use a page size of 10, 25, 50, 100");
    await expectError(await platformAdmin.client.get("/api/admin/audit-log/export?to=someday"), 400, "to: Use a date as YYYY-MM-DD; to: Use a real date");
  });

  it("refuses a day that does not exist (29 February of a common year, 31 April) with 400, on the list and the export", async () => {
    // Narrowed to an organization without entries, so a wrong answer reads short.
    const none = `none-${randomUUID()}`;
    await expectError(await platformAdmin.client.get(`/api/admin/audit-log?organizationId=${none}&from=2023-02-29`), 400, "from: Use a real date");
    await expectError(await platformAdmin.client.get(`/api/admin/audit-log?organizationId=${none}&to=2024-04-31`), 400, "to: Use a real date");
    await expectError(await owner.client.get(`/api/organizations/${organizationId}/audit-log?from=2023-02-29`), 400, "from: Use a real date");
    await expectError(await platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${none}&from=2023-02-29`), 400, "from: Use a real date");
  });

  it("to=9998-12-31, the last day the filter accepts, includes every entry up to now, on the list and the export; a later one is refused", async () => {
    const organization = `far-${randomUUID()}`;
    const rows = ["2001-01-01T00:00:00.000Z", new Date().toISOString()].map((instant) =>
      auditRow({ created_at: instant, organization_id: organization, target_type: "user", target_id: instant }),
    );
    await server.db.insertInto("audit_event").values(rows).execute();
    await expectError(await platformAdmin.client.get(`/api/admin/audit-log?organizationId=${organization}&to=9999-12-31`), 400, "to: Use a real date");
    const listed = await platformAdmin.client.get(`/api/admin/audit-log?organizationId=${organization}&to=9998-12-31`);
    expect(listed.status, JSON.stringify(listed.data)).toBe(200);
    expect((listed.data as AuditLogPage).entries.map((found) => found.target?.id)).toEqual([rows[1]?.target_id, rows[0]?.target_id]);
    const exported = await expectCsvDownload(
      () => platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${organization}&to=9998-12-31`),
      "atrium",
    );
    expect(parseCsv(exported).map((record) => record[7])).toEqual(["target_id", rows[1]?.target_id, rows[0]?.target_id]);
  });

  it("exports CSV: the header, one line per entry newest first, the filters, quoting, and formula-looking values defused", async () => {
    const organization = `export-${randomUUID()}`;
    const rows = [
      auditRow({
        created_at: "2003-01-01T10:00:00.000Z",
        action: "organization.updated",
        actor_id: "actor-1",
        actor_label: 'Smith, "Jo"',
        target_type: "organization",
        target_id: organization,
        target_label: "two\nlines",
        organization_id: organization,
        organization_name: "=SUM(A1:A2)",
        ip_address: "198.18.0.1",
        user_agent: "-rf",
        reason: "+1 555",
        details: JSON.stringify({ note: "a,b" }),
      }),
      auditRow({
        created_at: "2003-01-01T11:00:00.000Z",
        action: "team.created",
        actor_id: "actor-2",
        actor_label: "plain@example.test",
        impersonator_id: "admin-1",
        impersonator_label: "@admin",
        target_type: "team",
        target_id: "team-1",
        target_label: "=1,2",
        organization_id: organization,
        organization_name: "\tTabbed",
      }),
      auditRow({ created_at: "2003-01-01T09:00:00.000Z", action: "user.created", actor_label: "command line", organization_id: organization }),
    ];
    await server.db.insertInto("audit_event").values(rows).execute();

    const text = await expectCsvDownload(() => platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${organization}`), "atrium");
    expect(text).toBe(
      [
        CSV_HEADER,
        `2003-01-01T11:00:00.000Z,team.created,actor-2,plain@example.test,admin-1,'@admin,team,team-1,"'=1,2",${organization},'\tTabbed,,,,`,
        `2003-01-01T10:00:00.000Z,organization.updated,actor-1,"Smith, ""Jo""",,,organization,${organization},"two\nlines",${organization},'=SUM(A1:A2),198.18.0.1,'-rf,'+1 555,"{""note"":""a,b""}"`,
        `2003-01-01T09:00:00.000Z,user.created,,command line,,,,,,${organization},,,,,`,
        "",
      ].join("\r\n"),
    );
    expect(parseCsv(text)[2]?.[8]).toBe("two\nlines");

    const filtered = await expectCsvDownload(
      () => platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${organization}&action=team.created`),
      "atrium",
    );
    expect(parseCsv(filtered).map((record) => record[1])).toEqual(["action", "team.created"]);
    const dated = await expectCsvDownload(
      () => platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${organization}&from=2003-01-02`),
      "atrium",
    );
    expect(dated).toBe(`${CSV_HEADER}\r\n`);
    // Paging does not narrow an export.
    const unpaged = await expectCsvDownload(
      () => platformAdmin.client.get(`/api/admin/audit-log/export?organizationId=${organization}&limit=10&offset=2`),
      "atrium",
    );
    expect(parseCsv(unpaged)).toHaveLength(4);
  });

  it("the organization's export holds only its own entries, newest first, even when the query names another organization", async () => {
    const expected = await findEntries({ organizationId });
    for (const path of [
      `/api/organizations/${organizationId}/audit-log/export`,
      `/api/organizations/${organizationId}/audit-log/export?organizationId=${otherOrganizationId}`,
    ]) {
      const records = parseCsv(await expectCsvDownload(() => orgAdmin.client.get(path), "organization"));
      expect(records[0]?.join(",")).toBe(CSV_HEADER);
      const lines = records.slice(1);
      expect(lines.map((record) => [record[0], record[1], record[9]])).toEqual(expected.map((found) => [found.createdAt, found.action, organizationId]));
      expect(lines.map((record) => record[3])).toEqual(expected.map((found) => found.actor.label));
    }
  });
});

describe("entries cannot be changed through the product", () => {
  it("PUT, PATCH, DELETE and POST on the log's paths answer the API's 404, and the entry stays as it was", async () => {
    const owner = await createVerifiedUser(server, { label: "immutable" });
    const organization = await createOrganizationWithOwner(owner, "Immutable");
    const target = await onlyEntry({ targetId: organization.id, action: "organization.created" });
    const paths: Array<[TestUser, string]> = [
      [platformAdmin, "/api/admin/audit-log"],
      [platformAdmin, `/api/admin/audit-log/${target.id}`],
      [owner, `/api/organizations/${organization.id}/audit-log`],
      [owner, `/api/organizations/${organization.id}/audit-log/${target.id}`],
    ];
    for (const [user, path] of paths) {
      for (const method of ["PUT", "PATCH", "DELETE", "POST"]) {
        const response = await user.client.request(path, { method, json: { action: "user.deleted", actor_label: "forged" } });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.data).toEqual({ code: "NOT_FOUND", message: `No endpoint ${method} ${path}`, requestId: expect.any(String) });
      }
    }
    expect(await onlyEntry({ targetId: organization.id, action: "organization.created" })).toEqual(target);
    expect(await findEntries({ organizationId: organization.id })).toEqual([target]);
  });
});

describe("retention", () => {
  it("purgeAuditLog deletes the entries older than the retention period and keeps the rest; the hourly purge of an app started with AUDIT_RETENTION_DAYS applies it", async () => {
    const database = await createTestDatabase();
    try {
      const first = await createTestApp({ database });
      const day = 86_400_000;
      const now = Date.now();
      const aged = (label: string, ageMs: number) => auditRow({ created_at: new Date(now - ageMs).toISOString(), actor_label: label });
      const rows = [aged("ancient", 400 * day), aged("just-over", 30 * day + 60_000), aged("just-under", 30 * day - 60_000), aged("fresh", 60_000)];
      try {
        // The purge the app ran at its start is over before the old entries are arranged.
        await first.services.auditRetention.drain();
        await first.db.insertInto("audit_event").values(rows).execute();
        expect(await purgeAuditLog(first.db, 30, new Date(now))).toBe(2);
        const left = await first.db.selectFrom("audit_event").select("actor_label").orderBy("created_at").execute();
        expect(left.map((row) => row.actor_label)).toEqual(["just-under", "fresh"]);
        expect(await purgeAuditLog(first.db, 30, new Date(now))).toBe(0);
        await first.db
          .insertInto("audit_event")
          .values(aged("two days old", 2 * day))
          .execute();
      } finally {
        await first.close();
      }
      // The first app ran the purge when it started; an hour passes, and the purge is due as the app restarts.
      const { db: scheduleDb, close } = openDatabase(first.config.database);
      try {
        await scheduleDb.updateTable("job_schedule").set({ next_run_at: new Date().toISOString() }).where("name", "=", "audit log purge").execute();
      } finally {
        await close();
      }

      const restarted = await createTestApp({ database, env: { AUDIT_RETENTION_DAYS: "1" } });
      try {
        const labels = () => restarted.db.selectFrom("audit_event").select("actor_label").orderBy("created_at").execute();
        await waitFor(async () => !(await labels()).some((row) => row.actor_label === "two days old"), { timeoutMs: 5_000, what: "the purge once due" });
        expect((await labels()).map((row) => row.actor_label)).toEqual(["fresh"]);
      } finally {
        await restarted.close();
      }
    } finally {
      await database.drop();
    }
  });
});

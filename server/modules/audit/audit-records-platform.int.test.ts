import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BillingOverview } from "../../../common/billing.schemas";
import { productIdOf, settleBilling, subscribe } from "../../test/billing";
import { actorOf, entry, findEntries, makePlatformAdmin, ok, onlyEntry } from "../../test/audit-harness";
import { sentBy, startAuditServer, stopAuditServer, withAgent, withRefusedInserts } from "../../test/audit-harness";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { expectError } from "../../test/request";
import type { TestApp } from "../../test/test-database";
import { changePlatformRoleFromCommandLine } from "../admin";

/**
 * The audit log through the HTTP API: what each platform admin action, an impersonation, a billing change and
 * the command line's role grant record (who, from where, about what). One app on a real port serves every test
 * of the file (billing needs the sandbox).
 */

let server: TestApp;
/** A platform admin (role set in the database): reads the whole log for the assertions. */
let platformAdmin: TestUser;

beforeAll(async () => {
  ({ server, platformAdmin } = await startAuditServer());
});

afterAll(stopAuditServer);

describe("what each change records", () => {
  it("each platform admin action: user created, role changed, banned, unbanned, password set, a session and all sessions revoked, deleted", async () => {
    const admin = platformAdmin;
    const byAdmin = { actor: actorOf(admin), ...sentBy(admin) };
    const aboutUser = (user: { id: string; email: string }) => ({
      type: "user" as const,
      id: user.id,
      label: user.email,
    });

    const email = `created-${randomUUID()}@example.test`;
    const created = ok(
      await admin.client.post(
        "/api/auth/admin/create-user",
        { email, name: "Created By Admin", password: `Pw-${randomUUID()}` },
        withAgent,
      ),
    );
    const createdUser = { id: created.data.user.id as string, email };
    expect(await onlyEntry({ targetId: createdUser.id, action: "user.created" })).toEqual(
      entry({
        action: "user.created",
        ...byAdmin,
        target: aboutUser(createdUser),
        details: { role: "user", password: "set" },
      }),
    );
    const invitedEmail = `invited-user-${randomUUID()}@example.test`;
    const invited = ok(
      await admin.client.post(
        "/api/auth/admin/create-user",
        { email: invitedEmail, name: "Invited By Admin", role: "admin" },
        withAgent,
      ),
    );
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
        entry({
          action: "user.role_changed",
          ...byAdmin,
          target: aboutUser(target),
          details: { from: "user", to: "admin" },
        }),
        entry({
          action: "user.role_changed",
          ...byAdmin,
          target: aboutUser(target),
          details: { from: "admin", to: "user" },
        }),
      ]),
    );
    expect(roleChanges).toHaveLength(2);

    ok(
      await admin.client.post(
        "/api/auth/admin/ban-user",
        { userId: target.id, banReason: "Spam, reported twice", banExpiresIn: 3600 },
        withAgent,
      ),
    );
    const banned = await server.db
      .selectFrom("user")
      .select("banExpires")
      .where("id", "=", target.id)
      .executeTakeFirstOrThrow();
    const expiresAt = new Date(banned.banExpires as string | Date).toISOString();
    expect(Math.abs(Date.parse(expiresAt) - (Date.now() + 3_600_000))).toBeLessThan(60_000);
    expect(await onlyEntry({ targetId: target.id, action: "user.banned" })).toEqual(
      entry({
        action: "user.banned",
        ...byAdmin,
        target: aboutUser(target),
        reason: "Spam, reported twice",
        details: { expiresAt },
      }),
    );
    ok(await admin.client.post("/api/auth/admin/unban-user", { userId: target.id }, withAgent));
    expect(await onlyEntry({ targetId: target.id, action: "user.unbanned" })).toEqual(
      entry({ action: "user.unbanned", ...byAdmin, target: aboutUser(target) }),
    );

    ok(
      await admin.client.post(
        "/api/auth/admin/set-user-password",
        { userId: target.id, newPassword: `Pw-${randomUUID()}` },
        withAgent,
      ),
    );
    expect(await onlyEntry({ targetId: target.id, action: "user.password_set" })).toEqual(
      entry({ action: "user.password_set", ...byAdmin, target: aboutUser(target) }),
    );

    const sessionOwner = await createVerifiedUser(server, { label: "sessions" });
    const session = await server.db
      .selectFrom("session")
      .select(["id", "token"])
      .where("userId", "=", sessionOwner.id)
      .executeTakeFirstOrThrow();
    ok(await admin.client.post("/api/auth/admin/revoke-user-session", { sessionToken: session.token }, withAgent));
    expect(await onlyEntry({ targetId: sessionOwner.id, action: "user.session_revoked" })).toEqual(
      entry({
        action: "user.session_revoked",
        ...byAdmin,
        target: aboutUser(sessionOwner),
        details: { sessionId: session.id },
      }),
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

    ok(
      await admin.client.post(
        "/api/auth/admin/impersonate-user",
        { userId: user.id, reason: "Ticket #42: cannot rename team" },
        withAgent,
      ),
    );
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
    await expectError(
      await admin.client.get("/api/admin/audit-log"),
      403,
      "You are not allowed to access resource: auditLog",
    );

    const team = ok(
      await admin.client.post(
        "/api/auth/organization/create-team",
        { name: "Made while impersonating", organizationId: organization.id },
        withAgent,
      ),
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
    ok(
      await owner.client.post(
        `${base}/subscription`,
        { cancelAtPeriodEnd: true, cancellationReason: "too_expensive" },
        withAgent,
      ),
    );
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
    const seatedSubscription = (
      ok(await owner.client.get(`/api/organizations/${seated.id}/billing`)).data as BillingOverview
    ).subscription?.id as string;
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
    const granted = await changePlatformRoleFromCommandLine(server.db, server.config.adminUserIds, {
      action: "grant",
      email: ` ${user.email.toUpperCase()} `,
    });
    expect(granted).toEqual({ email: user.email, from: "user", to: "admin", changed: true });
    const commandLine = {
      actor: { type: "command_line" as const, id: null, label: "command line" },
      target: { type: "user" as const, id: user.id, label: user.email },
    };
    expect(await onlyEntry({ targetId: user.id, action: "user.role_changed" })).toEqual(
      entry({ action: "user.role_changed", ...commandLine, details: { from: "user", to: "admin" } }),
    );
    expect(
      await changePlatformRoleFromCommandLine(server.db, server.config.adminUserIds, {
        action: "grant",
        email: user.email,
      }),
    ).toMatchObject({
      changed: false,
    });
    expect(await findEntries({ targetId: user.id, action: "user.role_changed" })).toHaveLength(1);

    // The change and its entry are one transaction: an entry that cannot be written leaves the role as it was.
    await withRefusedInserts("audit_event", "target_id", user.id, async () => {
      await expect(
        changePlatformRoleFromCommandLine(server.db, server.config.adminUserIds, {
          action: "revoke",
          email: user.email,
        }),
      ).rejects.toThrow("audit_event insert refused for the test");
    });
    expect(
      (await server.db.selectFrom("user").select("role").where("id", "=", user.id).executeTakeFirstOrThrow()).role,
    ).toBe("admin");

    await changePlatformRoleFromCommandLine(server.db, server.config.adminUserIds, {
      action: "revoke",
      email: user.email,
    });
    const changes = await findEntries({ targetId: user.id, action: "user.role_changed" });
    expect(changes).toHaveLength(2);
    expect(changes).toEqual(
      expect.arrayContaining([
        entry({ action: "user.role_changed", ...commandLine, details: { from: "admin", to: "user" } }),
      ]),
    );
  });
});

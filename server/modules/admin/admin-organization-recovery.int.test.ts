import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminOrganizationDetail } from "../../../common/admin.schemas";
import type { AdminOrganizationBilling, BillingOverview } from "../../../common/billing.schemas";
import { actorOf, entry, findEntries, sentBy, withAgent } from "../../test/audit-harness";
import { startAuditServer, stopAuditServer } from "../../test/audit-harness";
import { productIdOf, settleBilling, subscribe } from "../../test/billing";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { expectError, TestClient } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * An operator's recovery of an organization nobody can manage (its only owner's account is gone): a platform admin
 * gives it a new owner, cancels its subscription (at the period's end or at once) or refunds a payment, each with a
 * reason that the audit log keeps, written with the change; a refused change records nothing.
 */

let server: TestApp;
let platformAdmin: TestUser;

beforeAll(async () => {
  ({ server, platformAdmin } = await startAuditServer());
});
afterAll(stopAuditServer);

const ownerPath = (organizationId: string) => `/api/admin/organizations/${organizationId}/owner`;
const billingPath = (organizationId: string) => `/api/admin/billing/organizations/${organizationId}`;

/** An organization whose owner's membership is gone (as after their account was deleted), with one member left. */
async function orphanedOrganization(name: string) {
  const owner = await createVerifiedUser(server, { label: `${name}-owner` });
  const member = await createVerifiedUser(server, { label: `${name}-member` });
  const organization = await createOrganizationWithOwner(owner, name);
  await addMember(owner, organization.id, member);
  await server.db
    .deleteFrom("member")
    .where("organizationId", "=", organization.id)
    .where("userId", "=", owner.id)
    .execute();
  return { owner, member, organization };
}

async function membersOf(organizationId: string) {
  const detail = await platformAdmin.client.get(`/api/admin/organizations/${organizationId}`);
  expect(detail.status).toBe(200);
  return (detail.data as AdminOrganizationDetail).members.map(({ email, role }) => ({ email, role }));
}

describe("giving an organization a new owner", () => {
  it("tells the organization's webhooks: a member made owner is a role change, a newcomer is a member added", async () => {
    const { member, organization } = await orphanedOrganization("Hooked");
    const now = new Date().toISOString();
    await server.db
      .insertInto("webhook_endpoint")
      .values({
        id: `wh_${organization.id}`,
        organization_id: organization.id,
        url: "https://hooks.example.com/in",
        description: null,
        events: JSON.stringify(["member.added", "member.role_changed"]),
        enabled: 1,
        secret: `whsec_${Buffer.alloc(24, 7).toString("base64")}`,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const outsider = await createVerifiedUser(server, { label: "hooked-newcomer" });
    for (const email of [member.email, outsider.email]) {
      const response = await platformAdmin.client.post(
        ownerPath(organization.id),
        { email, reason: "Recovery" },
        withAgent,
      );
      expect(response.status).toBe(200);
    }
    const messages = await server.db
      .selectFrom("webhook_message")
      .select(["event_type", "payload"])
      .where("endpoint_id", "=", `wh_${organization.id}`)
      .orderBy("seq")
      .execute();
    expect(messages.map((message) => message.event_type)).toEqual(["member.role_changed", "member.added"]);
    expect(JSON.parse(messages[0]!.payload).data).toMatchObject({ from: "member", to: "owner" });
  });

  it("makes a member the owner, with the reason in the audit log; the new owner then manages billing", async () => {
    const { member, organization } = await orphanedOrganization("Ownerless");
    const billingChange = () => member.client.post(`/api/organizations/${organization.id}/billing/portal`, {});
    await expectError(await billingChange(), 403, "You are not allowed to access resource: billing");

    const response = await platformAdmin.client.post(
      ownerPath(organization.id),
      { email: member.email.toUpperCase(), reason: "Owner left the company; ticket 4711" },
      withAgent,
    );
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ userId: member.id, email: member.email, from: "member" });
    expect(await membersOf(organization.id)).toEqual([{ email: member.email, role: "owner" }]);
    expect(await findEntries({ organizationId: organization.id, action: "organization.owner_assigned" })).toEqual([
      entry({
        action: "organization.owner_assigned",
        actor: actorOf(platformAdmin),
        target: { type: "user", id: member.id, label: member.email },
        organization: { id: organization.id, name: "Ownerless" },
        reason: "Owner left the company; ticket 4711",
        details: { from: "member", to: "owner" },
        ...sentBy(platformAdmin),
      }),
    ]);
    expect((await billingChange()).status).toBe(200);
  });

  it("adds a user who is not a member as an owner", async () => {
    const { organization } = await orphanedOrganization("Adopted");
    const outsider = await createVerifiedUser(server, { label: "outsider" });
    const response = await platformAdmin.client.post(ownerPath(organization.id), {
      email: outsider.email,
      reason: "Customer's new administrator",
    });
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ userId: outsider.id, email: outsider.email, from: null });
    expect(await membersOf(organization.id)).toContainEqual({ email: outsider.email, role: "owner" });
    const [recorded] = await findEntries({ organizationId: organization.id, action: "organization.owner_assigned" });
    expect(recorded?.details).toEqual({ from: null, to: "owner" });
  });

  it("refuses, recording nothing: no reason, no such user, no such organization, already an owner", async () => {
    const { member, organization } = await orphanedOrganization("Refused");
    const assign = (body: Record<string, unknown>, organizationId = organization.id) =>
      platformAdmin.client.post(ownerPath(organizationId), body);

    await expectError(await assign({ email: member.email }), 400, "reason: Say why, for the audit log");
    await expectError(await assign({ email: member.email, reason: "   " }), 400, "reason: Say why, for the audit log");
    await expectError(await assign({ email: "", reason: "x" }), 400, "email: Enter the new owner's e-mail");
    await expectError(
      await assign({ email: "nobody@example.test", reason: "x" }),
      404,
      "No user has the e-mail nobody@example.test.",
    );
    await expectError(
      await assign({ email: member.email, reason: "x" }, "no-such-organization"),
      404,
      "organization not found",
    );
    expect((await assign({ email: member.email, reason: "first" })).status).toBe(200);
    await expectError(
      await assign({ email: member.email, reason: "again" }),
      409,
      `${member.email} is already an owner of this organization.`,
    );
    const entries = await findEntries({ organizationId: organization.id, action: "organization.owner_assigned" });
    expect(entries.map((recorded) => recorded.reason)).toEqual(["first"]);
  });

  it("takes a seat of the plan for someone who is not a member: refused when none is left", async () => {
    const owner = await createVerifiedUser(server, { label: "full-owner" });
    const organization = await createOrganizationWithOwner(owner, "Full");
    for (let index = 0; index < 9; index += 1) {
      const invited = await owner.client.post("/api/auth/organization/invite-member", {
        email: `invited-${index}-${organization.id}@example.test`,
        role: "member",
        organizationId: organization.id,
      });
      expect(invited.status).toBe(200);
    }
    const outsider = await createVerifiedUser(server, { label: "full-outsider" });
    await expectError(
      await platformAdmin.client.post(ownerPath(organization.id), { email: outsider.email, reason: "Recovery" }),
      403,
      "The Free plan includes 10 seats and all are used by members and pending invitations. " +
        "Upgrade the plan to invite more.",
    );
    expect(await membersOf(organization.id)).toEqual([{ email: owner.email, role: "owner" }]);
    expect(await findEntries({ organizationId: organization.id, action: "organization.owner_assigned" })).toEqual([]);
  });

  it("is for platform admins only", async () => {
    const { member, organization } = await orphanedOrganization("Guarded");
    const body = { email: member.email, reason: "I want it" };
    await expectError(
      await member.client.post(ownerPath(organization.id), body),
      403,
      "You are not allowed to access resource: organization",
    );
    const anonymous = await new TestClient(server).post(ownerPath(organization.id), body);
    await expectError(anonymous, 401, "Unauthorized");
    expect(await membersOf(organization.id)).toEqual([{ email: member.email, role: "member" }]);
  });
});

describe("cancelling an organization's subscription and refunding it", () => {
  async function subscribedOrganization(name: string) {
    const owner = await createVerifiedUser(server, { label: `${name}-owner` });
    const organization = await createOrganizationWithOwner(owner, name);
    await subscribe(server, owner, organization.id, { productId: await productIdOf(owner.client, "pro") });
    const overview = (await owner.client.get(`/api/organizations/${organization.id}/billing`)).data as BillingOverview;
    return { owner, organization, overview, subscriptionId: overview.subscription?.id as string };
  }
  const cancel = (organizationId: string, body: Record<string, unknown>) =>
    platformAdmin.client.post(`${billingPath(organizationId)}/subscription/cancel`, body, withAgent);

  it("at the end of the period: it stops renewing, and the entry says why", async () => {
    const { organization, subscriptionId } = await subscribedOrganization("Lapsing");
    await expectError(await cancel(organization.id, { when: "period_end" }), 400, "reason: Say why, for the audit log");
    await expectError(
      await cancel(organization.id, { when: "later", reason: "x" }),
      400,
      "when: Use one of: period_end, now",
    );
    const response = await cancel(organization.id, { when: "period_end", reason: "Nobody can manage it" });
    expect(response.status).toBe(200);
    const subscription = (response.data as AdminOrganizationBilling).overview.subscription;
    expect(subscription).toMatchObject({ id: subscriptionId, status: "active", cancelAtPeriodEnd: true });
    expect(await findEntries({ targetId: subscriptionId, action: "billing.subscription_canceled" })).toEqual([
      entry({
        action: "billing.subscription_canceled",
        actor: actorOf(platformAdmin),
        target: { type: "subscription", id: subscriptionId, label: "Pro" },
        organization: { id: organization.id, name: "Lapsing" },
        reason: "Nobody can manage it",
        details: { when: "period_end" },
        ...sentBy(platformAdmin),
      }),
    ]);
    await expectError(
      await cancel(organization.id, { when: "period_end", reason: "again" }),
      409,
      "This subscription already ends with its current period.",
    );
    expect(await findEntries({ targetId: subscriptionId, action: "billing.subscription_canceled" })).toHaveLength(1);
  });

  it("at once: the provider revokes it and the organization is back on the Free plan", async () => {
    const { owner, organization, subscriptionId } = await subscribedOrganization("Revoked");
    const response = await cancel(organization.id, { when: "now", reason: "Fraudulent sign-up" });
    expect(response.status).toBe(200);
    expect((response.data as AdminOrganizationBilling).overview.subscription).toBeNull();
    await settleBilling(server);
    const overview = (await owner.client.get(`/api/organizations/${organization.id}/billing`)).data as BillingOverview;
    expect(overview.plan.key).toBe("free");
    const [recorded] = await findEntries({ targetId: subscriptionId, action: "billing.subscription_canceled" });
    expect(recorded).toMatchObject({ reason: "Fraudulent sign-up", details: { when: "now" } });
    await expectError(
      await cancel(organization.id, { when: "now", reason: "again" }),
      409,
      "This organization has no subscription to cancel.",
    );
  });

  it("refuses people who are not platform admins, and organizations without a subscription", async () => {
    const { owner, organization } = await subscribedOrganization("Kept");
    await expectError(
      await owner.client.post(`${billingPath(organization.id)}/subscription/cancel`, { when: "now", reason: "x" }),
      403,
      "You are not allowed to access resource: billing",
    );
    const free = await createOrganizationWithOwner(owner, "Free");
    await expectError(
      await cancel(free.id, { when: "now", reason: "x" }),
      409,
      "This organization has no subscription to cancel.",
    );
    await expectError(
      await cancel("no-such-organization", { when: "now", reason: "x" }),
      404,
      "organization not found",
    );
  });

  it("a refund needs a reason, which the entry keeps", async () => {
    const { organization, overview } = await subscribedOrganization("Refunded");
    const orderId = overview.orders[0]?.id as string;
    const refund = (body: Record<string, unknown>) =>
      platformAdmin.client.post(`${billingPath(organization.id)}/refunds`, { orderId, reason: "other", ...body });
    await expectError(await refund({}), 400, "comment: Say why, for the audit log");
    expect(await findEntries({ targetId: orderId, action: "billing.refund_issued" })).toEqual([]);
    expect((await refund({ amount: 100, comment: "Double charge after the outage" })).status).toBe(200);
    const [recorded] = await findEntries({ targetId: orderId, action: "billing.refund_issued" });
    expect(recorded?.reason).toBe("Double charge after the outage");
  });
});

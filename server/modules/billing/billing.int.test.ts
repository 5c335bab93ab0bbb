import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BillingOverview, ChangePreview, CheckoutProgress } from "../../../common/billing.schemas";
import { FREE_PLAN_LIMITS } from "../../../common/billing.schemas";
import { BILLING_RETENTION_MS, startBillingWorker } from "../../jobs/billing-worker";
import { createLogger } from "../../logger";
import { checkoutIdOf, productIdOf, sandboxCall, settleBilling, subscribe, withWebhooksOff } from "../../test/billing";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/** The real flows against the sandbox over HTTP, with its signed webhooks applied by the billing worker. */

let server: TestApp;
let owner: TestUser;

beforeAll(async () => {
  server = await createTestApp({ listen: true });
  owner = await createVerifiedUser(server);
});
afterAll(async () => server.close());

async function overviewOf(organizationId: string, user: TestUser = owner): Promise<BillingOverview> {
  const response = await user.client.get(`/api/organizations/${organizationId}/billing`);
  expect(response.status).toBe(200);
  return response.data as BillingOverview;
}

async function subscribedOrganization(name: string, plan = "pro"): Promise<{ id: string; overview: BillingOverview }> {
  const organization = await createOrganizationWithOwner(owner, name);
  await subscribe(server, owner, organization.id, { productId: await productIdOf(owner.client, plan) });
  return { id: organization.id, overview: await overviewOf(organization.id) };
}

async function advanceDays(days: number): Promise<void> {
  const advanced = await sandboxCall(server, "POST", "/sandbox/clock/advance", { days });
  expect(advanced.status).toBe(200);
  await settleBilling(server);
}

describe("checkout", () => {
  it("starts on the free plan and becomes Pro once the payment's webhooks arrive, with the card's last digits", async () => {
    const organization = await createOrganizationWithOwner(owner, "Paying");
    const before = await overviewOf(organization.id);
    expect(before.plan).toEqual({ key: "free", name: "Free", productId: null });
    expect(before.subscription).toBeNull();
    expect(before.entitlements.limits).toEqual(FREE_PLAN_LIMITS);
    expect(before.canManage).toBe(true);

    const checkoutId = await subscribe(server, owner, organization.id, {
      productId: await productIdOf(owner.client, "pro"),
    });
    const overview = await overviewOf(organization.id);
    expect(overview.plan.key).toBe("pro");
    expect(overview.subscription).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: false,
      recurringInterval: "month",
    });
    expect(overview.entitlements.features).toEqual(expect.arrayContaining(["priority_support", "api_credits"]));
    expect(overview.entitlements.limits).toEqual({ members: null, teams: null });
    expect(overview.orders).toMatchObject([
      { status: "paid", billingReason: "subscription_create", totalAmount: 2000 },
    ]);
    expect(overview.paymentMethod).toEqual({ brand: "visa", last4: "4242" });
    const progress = await owner.client.get(`/api/organizations/${organization.id}/billing/checkouts/${checkoutId}`);
    expect(progress.data).toMatchObject({ id: checkoutId, state: "completed" } satisfies Partial<CheckoutProgress>);
  });

  it("says confirming between the payment and its webhook", async () => {
    const organization = await createOrganizationWithOwner(owner, "Confirming");
    const started = await owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, {
      productId: await productIdOf(owner.client, "pro"),
    });
    const checkoutId = await checkoutIdOf(server, (started.data as { url: string }).url);
    const progress = async () =>
      (
        (await owner.client.get(`/api/organizations/${organization.id}/billing/checkouts/${checkoutId}`))
          .data as CheckoutProgress
      ).state;
    expect(await progress()).toBe("open");
    // Paid at the provider while its webhooks do not reach the app.
    await withWebhooksOff(server, async () => {
      await sandboxCall(server, "POST", `/sandbox/checkouts/${checkoutId}/complete`, {});
      await settleBilling(server);
      expect(await progress()).toBe("confirming");
      expect((await overviewOf(organization.id)).plan.key).toBe("free");
    });
    // The reconciliation reads what the webhooks would have said.
    expect((await adminCall("POST", `/api/admin/billing/organizations/${organization.id}/reconcile`)).status).toBe(200);
    expect(await progress()).toBe("completed");
    expect((await overviewOf(organization.id)).plan.key).toBe("pro");
  });

  it("a declined card changes nothing and the return page can say so", async () => {
    const organization = await createOrganizationWithOwner(owner, "Declined");
    const checkoutId = await subscribe(
      server,
      owner,
      organization.id,
      { productId: await productIdOf(owner.client, "pro") },
      { pay: false },
    );
    const overview = await overviewOf(organization.id);
    expect(overview.plan.key).toBe("free");
    expect(overview.subscription).toBeNull();
    expect(overview.orders).toEqual([]);
    expect(overview.lastCheckout).toMatchObject({ id: checkoutId, state: "declined" });
    const progress = await owner.client.get(`/api/organizations/${organization.id}/billing/checkouts/${checkoutId}`);
    expect((progress.data as CheckoutProgress).state).toBe("declined");
  });

  it("applies a discount code, and refuses an unknown one with a clear message", async () => {
    const organization = await createOrganizationWithOwner(owner, "Discounted");
    const productId = await productIdOf(owner.client, "pro");
    await expectError(
      await owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, {
        productId,
        discountCode: "NOPE",
      }),
      400,
      "That discount code is not valid.",
    );
    await subscribe(server, owner, organization.id, { productId, discountCode: "launch20" });
    const overview = await overviewOf(organization.id);
    expect(overview.subscription?.discountId).toEqual(expect.any(String));
    expect(overview.orders[0]?.totalAmount).toBe(1600);
  });

  it("refuses products that are not on offer, and a second subscription", async () => {
    const organization = await createOrganizationWithOwner(owner, "Offer");
    await expectError(
      await owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, {
        productId: "00000000-0000-4000-8000-000000000000",
      }),
      400,
      "Choose one of the plans on offer.",
    );
    const freeProduct = (await sandboxCall(server, "GET", "/v1/products/?limit=100")).body.items as Array<{
      id: string;
      metadata: { plan?: string };
    }>;
    const free = freeProduct.find((product) => product.metadata.plan === "free");
    await expectError(
      await owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, { productId: free?.id }),
      400,
      "Choose one of the plans on offer.",
    );
    const { id } = await subscribedOrganization("Twice");
    await expectError(
      await owner.client.post(`/api/organizations/${id}/billing/checkout`, {
        productId: await productIdOf(owner.client, "pro", "year"),
      }),
      409,
      "This organization already has a subscription: change its plan instead.",
    );
  });
});

describe("subscription lifecycle", () => {
  it("renews when the period ends: a new period and a subscription_cycle order", async () => {
    const { id, overview } = await subscribedOrganization("Renewing");
    await advanceDays(32);
    const renewed = await overviewOf(id);
    expect(renewed.meters.map((meter) => meter.name)).toEqual(["API requests"]);
    expect(renewed.subscription?.status).toBe("active");
    expect(new Date(renewed.subscription?.currentPeriodEnd ?? 0).getTime()).toBeGreaterThan(
      new Date(overview.subscription?.currentPeriodEnd ?? 0).getTime(),
    );
    expect(renewed.orders.map((order) => order.billingReason)).toEqual(["subscription_cycle", "subscription_create"]);
  });

  it("cancels at period end with a reason, resumes, then cancels and lapses to the free plan", async () => {
    const { id } = await subscribedOrganization("Cancelling");
    const path = `/api/organizations/${id}/billing/subscription`;
    const canceled = await owner.client.post(path, { cancelAtPeriodEnd: true, cancellationReason: "too_expensive" });
    expect(canceled.status).toBe(200);
    expect((canceled.data as BillingOverview).subscription).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: true,
      cancellationReason: "too_expensive",
    });
    expect((canceled.data as BillingOverview).subscription?.endsAt).toEqual(expect.any(String));
    const resumed = await owner.client.post(path, { cancelAtPeriodEnd: false });
    expect((resumed.data as BillingOverview).subscription).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: false,
    });
    await expectError(
      await owner.client.post(path, { cancelAtPeriodEnd: false }),
      400,
      "The subscription is not set to cancel.",
    );
    await owner.client.post(path, { cancelAtPeriodEnd: true, cancellationReason: "unused" });
    await settleBilling(server);
    await advanceDays(32);
    const lapsed = await overviewOf(id);
    expect(lapsed.plan.key).toBe("free");
    expect(lapsed.subscription).toBeNull();
    expect(lapsed.entitlements.limits).toEqual(FREE_PLAN_LIMITS);
    expect(lapsed.entitlements.features).toEqual([]);
  });

  it("refuses an unknown cancellation reason and a body with two changes", async () => {
    const { id } = await subscribedOrganization("Reasons");
    const path = `/api/organizations/${id}/billing/subscription`;
    expect((await owner.client.post(path, { cancelAtPeriodEnd: true, cancellationReason: "bored" })).status).toBe(400);
    expect((await owner.client.post(path, { cancelAtPeriodEnd: true, seats: 3 })).status).toBe(400);
  });

  it("changes plan with the proration shown beforehand, billed now when the provider's setting is invoice", async () => {
    await setProrationBehavior("invoice");
    try {
      const { id } = await subscribedOrganization("Upgrading now");
      const yearly = await productIdOf(owner.client, "pro", "year");
      const preview = await owner.client.get(`/api/organizations/${id}/billing/change-preview?productId=${yearly}`);
      expect(preview.status).toBe(200);
      const expected = preview.data as ChangePreview;
      expect(expected).toMatchObject({ productId: yearly, currency: "usd", nextInvoice: { amount: 20_000 } });
      expect(expected.dueNow).toBeGreaterThan(17_000);
      const changed = await owner.client.post(`/api/organizations/${id}/billing/subscription`, { productId: yearly });
      expect(changed.status).toBe(200);
      expect((changed.data as BillingOverview).subscription).toMatchObject({
        productId: yearly,
        recurringInterval: "year",
        amount: 20_000,
      });
      await settleBilling(server);
      const update = (await overviewOf(id)).orders.find((order) => order.billingReason === "subscription_update");
      // The preview and the provider's order agree to the cent or two (a few seconds pass between them).
      expect(Math.abs((update?.totalAmount ?? 0) - expected.dueNow)).toBeLessThanOrEqual(2);
    } finally {
      await setProrationBehavior("prorate");
    }
  });

  it("with the provider's setting prorate, the plan change adds the proration to the next invoice instead", async () => {
    const { id } = await subscribedOrganization("Upgrading later", "team");
    const pro = await productIdOf(owner.client, "pro");
    const preview = (await owner.client.get(`/api/organizations/${id}/billing/change-preview?productId=${pro}`))
      .data as ChangePreview;
    expect(preview.dueNow).toBe(0);
    expect((await owner.client.post(`/api/organizations/${id}/billing/subscription`, { productId: pro })).status).toBe(
      200,
    );
    await settleBilling(server);
    expect((await overviewOf(id)).orders.map((order) => order.billingReason)).toEqual(["subscription_create"]);
  });

  it("a first payment that needs the customer's action is incomplete and grants nothing until it is completed", async () => {
    const organization = await createOrganizationWithOwner(owner, "Needs action");
    const started = await owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, {
      productId: await productIdOf(owner.client, "pro"),
    });
    const secret = new URL((started.data as { url: string }).url).pathname.split("/").at(-1);
    const confirmed = await sandboxCall(server, "POST", `/v1/checkouts/client/${secret}/confirm`, {
      customer_email: "action@example.com",
      customer_name: "Action",
      confirmation_token_id: "tok_threeDSecureRequired",
    });
    expect(confirmed.status).toBe(200);
    await settleBilling(server);
    const incomplete = await overviewOf(organization.id);
    expect(incomplete.subscription?.status).toBe("incomplete");
    expect(incomplete.entitlements).toEqual({ features: [], limits: FREE_PLAN_LIMITS });
    expect(
      (await sandboxCall(server, "POST", `/sandbox/subscriptions/${incomplete.subscription?.id}/complete-payment`))
        .status,
    ).toBe(200);
    await settleBilling(server);
    const active = await overviewOf(organization.id);
    expect(active.subscription?.status).toBe("active");
    expect(active.entitlements.limits).toEqual({ members: null, teams: null });
  });

  it("an incomplete first payment left for a day expires and the organization stays on the free plan", async () => {
    const organization = await createOrganizationWithOwner(owner, "Never confirmed");
    const started = await owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, {
      productId: await productIdOf(owner.client, "pro"),
    });
    const secret = new URL((started.data as { url: string }).url).pathname.split("/").at(-1);
    await sandboxCall(server, "POST", `/v1/checkouts/client/${secret}/confirm`, {
      customer_email: "late@example.com",
      confirmation_token_id: "tok_threeDSecureRequired",
    });
    await settleBilling(server);
    await advanceDays(1);
    const expired = await overviewOf(organization.id);
    expect(expired.plan.key).toBe("free");
    expect(expired.subscription).toBeNull();
  });

  it("goes past_due when a renewal is declined, then unpaid once dunning gives up", async () => {
    const { id } = await subscribedOrganization("Dunning");
    const subscriptionId = (await overviewOf(id)).subscription?.id;
    expect(
      (
        await sandboxCall(server, "POST", `/sandbox/subscriptions/${subscriptionId}/card`, {
          token: "tok_chargeDeclined",
        })
      ).status,
    ).toBe(200);
    await advanceDays(31);
    expect((await overviewOf(id)).subscription?.status).toBe("past_due");
    await advanceDays(8);
    const unpaid = await overviewOf(id);
    expect(unpaid.subscription?.status).toBe("unpaid");
    expect(unpaid.entitlements.features).toEqual([]);
  });
});

describe("who may do what", () => {
  it("a member reads billing but every change is refused with the access-check message", async () => {
    const organization = await createOrganizationWithOwner(owner, "Members");
    const member = await createVerifiedUser(server);
    await addMember(owner, organization.id, member, "member");
    const overview = await overviewOf(organization.id, member);
    expect(overview.canManage).toBe(false);
    const base = `/api/organizations/${organization.id}/billing`;
    const productId = await productIdOf(owner.client, "pro");
    const refused = "You are not allowed to access resource: billing";
    await expectError(await member.client.post(`${base}/checkout`, { productId }), 403, refused);
    await expectError(await member.client.post(`${base}/subscription`, { cancelAtPeriodEnd: true }), 403, refused);
    await expectError(await member.client.post(`${base}/subscription`, { seats: 4 }), 403, refused);
    await expectError(await member.client.post(`${base}/subscription`, { productId }), 403, refused);
    await expectError(await member.client.post(`${base}/portal`), 403, refused);
    await expectError(await member.client.post(`${base}/usage`, { meter: "api_request", quantity: 1 }), 403, refused);
    await expectError(await member.client.get(`${base}/change-preview?productId=${productId}`), 403, refused);
  });

  it("an admin of one organization is refused on another's billing", async () => {
    const theirs = await createOrganizationWithOwner(owner, "Theirs");
    const stranger = await createVerifiedUser(server);
    const mine = await createOrganizationWithOwner(stranger, "Mine");
    expect((await stranger.client.get(`/api/organizations/${mine.id}/billing`)).status).toBe(200);
    const base = `/api/organizations/${theirs.id}/billing`;
    const refused = "user is not a member of the organization";
    await expectError(await stranger.client.get(base), 403, refused);
    await expectError(
      await stranger.client.post(`${base}/checkout`, { productId: await productIdOf(owner.client, "pro") }),
      403,
      refused,
    );
    await expectError(await stranger.client.post(`${base}/portal`), 403, refused);
  });

  it("the portal opens for owners with the provider's portal URL", async () => {
    const { id } = await subscribedOrganization("Portal");
    const portal = await owner.client.post(`/api/organizations/${id}/billing/portal`);
    expect(portal.status).toBe(200);
    expect(portal.data).toMatchObject({ redirect: true, url: expect.stringContaining("customer_session_token=") });
  });
});

describe("plan limits and seats", () => {
  it("the free plan refuses more teams and more members than it includes, with the reason", async () => {
    const organization = await createOrganizationWithOwner(owner, "Limited");
    for (let index = 1; index < (FREE_PLAN_LIMITS.teams ?? 0); index += 1) {
      expect(
        (
          await owner.client.post("/api/auth/organization/create-team", {
            name: `Team ${index}`,
            organizationId: organization.id,
          })
        ).status,
      ).toBe(200);
    }
    const team = await owner.client.post("/api/auth/organization/create-team", {
      name: "One too many",
      organizationId: organization.id,
    });
    await expectError(
      team,
      403,
      `The Free plan includes ${FREE_PLAN_LIMITS.teams} teams. Upgrade the plan to create more.`,
    );
    for (let index = 1; index < (FREE_PLAN_LIMITS.members ?? 0); index += 1) {
      const invited = await owner.client.post("/api/auth/organization/invite-member", {
        email: `seat${index}-${organization.id}@example.com`,
        role: "member",
        organizationId: organization.id,
      });
      expect(invited.status).toBe(200);
    }
    const overview = await overviewOf(organization.id);
    expect(overview.seats).toEqual({ used: FREE_PLAN_LIMITS.members, limit: FREE_PLAN_LIMITS.members });
    const extra = await owner.client.post("/api/auth/organization/invite-member", {
      email: `extra-${organization.id}@example.com`,
      role: "member",
      organizationId: organization.id,
    });
    await expectError(
      extra,
      403,
      `The Free plan includes ${FREE_PLAN_LIMITS.members} seats and all are used by members and pending invitations. Upgrade the plan to invite more.`,
    );
    // Resending an invitation keeps its seat.
    const resent = await owner.client.post("/api/auth/organization/invite-member", {
      email: `seat1-${organization.id}@example.com`,
      role: "member",
      organizationId: organization.id,
      resend: true,
    });
    expect(resent.status).toBe(200);
  });

  it("a per-seat plan bounds members plus invitations by its seats on invite, resend and accept", async () => {
    const organization = await createOrganizationWithOwner(owner, "Seated");
    await subscribe(server, owner, organization.id, { productId: await productIdOf(owner.client, "team"), seats: 2 });
    const overview = await overviewOf(organization.id);
    expect(overview.subscription?.seats).toBe(2);
    expect(overview.seats).toEqual({ used: 1, limit: 2 });
    const invitee = await createVerifiedUser(server);
    const invited = await owner.client.post("/api/auth/organization/invite-member", {
      email: invitee.email,
      role: "member",
      organizationId: organization.id,
    });
    expect(invited.status).toBe(200);
    const message =
      "The Team plan includes 2 seats and all are used by members and pending invitations. Upgrade the plan or add seats to invite more.";
    await expectError(
      await owner.client.post("/api/auth/organization/invite-member", {
        email: `third-${organization.id}@example.com`,
        role: "member",
        organizationId: organization.id,
      }),
      403,
      message,
    );
    await expectError(
      await owner.client.post(`/api/organizations/${organization.id}/billing/subscription`, { seats: 1 }),
      400,
      "Choose at least 2 seats: members and pending invitations use 2. Remove members or cancel invitations first.",
    );
    expect(
      (
        await owner.client.post("/api/auth/organization/invite-member", {
          email: invitee.email,
          role: "member",
          organizationId: organization.id,
          resend: true,
        })
      ).status,
    ).toBe(200);
    // More members than seats (the seats were lowered at the provider): accepting is refused.
    const subscriptionId = overview.subscription?.id;
    const lowered = await sandboxCall(server, "PATCH", `/v1/subscriptions/${subscriptionId}`, { seats: 1 });
    expect(lowered.status).toBe(200);
    await settleBilling(server);
    await expectError(
      await invitee.client.post("/api/auth/organization/accept-invitation", {
        invitationId: (invited.data as { id: string }).id,
      }),
      403,
      message.replace("2 seats", "1 seats"),
    );
    // Adding seats lets the invitation in.
    const added = await owner.client.post(`/api/organizations/${organization.id}/billing/subscription`, { seats: 3 });
    expect(added.status).toBe(200);
    expect((added.data as BillingOverview).seats).toEqual({ used: 2, limit: 3 });
    expect(
      (
        await invitee.client.post("/api/auth/organization/accept-invitation", {
          invitationId: (invited.data as { id: string }).id,
        })
      ).status,
    ).toBe(200);
  });
});

describe("usage, reconciliation, refunds, deletion", () => {
  it("records usage durably with an idempotency key and reads the meter back", async () => {
    const { id } = await subscribedOrganization("Usage");
    const path = `/api/organizations/${id}/billing/usage`;
    const first = await owner.client.post(path, { meter: "api_request", quantity: 7, key: "job-1" });
    expect(first.status).toBe(202);
    expect(first.data).toMatchObject({ duplicate: false });
    const repeat = await owner.client.post(path, { meter: "api_request", quantity: 7, key: "job-1" });
    expect(repeat.data).toEqual({ id: (first.data as { id: string }).id, duplicate: true });
    await owner.client.post(path, { meter: "api_request", quantity: 3 });
    await server.services.billingWorker.drain();
    const reconciled = await adminCall("POST", `/api/admin/billing/organizations/${id}/reconcile`);
    expect(reconciled.status).toBe(200);
    const meter = (reconciled.data as BillingOverview).meters[0];
    expect(meter).toMatchObject({ consumed: 10, credited: 10_000, remaining: 9_990 });
  });

  it("reconciliation heals a webhook that never arrived", async () => {
    const { id, overview } = await subscribedOrganization("Healing");
    await withWebhooksOff(server, async () => {
      const updated = await sandboxCall(server, "PATCH", `/v1/subscriptions/${overview.subscription?.id}`, {
        cancel_at_period_end: true,
      });
      expect(updated.status).toBe(200);
      await settleBilling(server);
      expect((await overviewOf(id)).subscription?.cancelAtPeriodEnd).toBe(false);
    });
    const healed = await adminCall("POST", `/api/admin/billing/organizations/${id}/reconcile`);
    expect((healed.data as BillingOverview).subscription?.cancelAtPeriodEnd).toBe(true);
  });

  it("the scheduled run heals every billed organization and purges handled deliveries older than a month", async () => {
    const { id, overview } = await subscribedOrganization("Scheduled");
    await withWebhooksOff(server, async () => {
      expect(
        (
          await sandboxCall(server, "PATCH", `/v1/subscriptions/${overview.subscription?.id}`, {
            cancel_at_period_end: true,
          })
        ).status,
      ).toBe(200);
      await settleBilling(server);
    });
    const old = new Date(Date.now() - BILLING_RETENTION_MS - 60_000).toISOString();
    const row = (status: "applied" | "pending") => ({
      id: randomUUID(),
      type: "order.paid",
      payload: "{}",
      status,
      attempts: 0,
      next_attempt_at: old,
      received_at: old,
    });
    const [handled, waiting] = [
      row("applied"),
      { ...row("pending"), next_attempt_at: new Date(Date.now() + 3_600_000).toISOString() },
    ];
    await server.db.insertInto("billing_webhook_event").values([handled, waiting]).execute();

    // The app's own worker ran the job when it first polled: the next run is due six hours later. Six hours pass.
    await server.db
      .updateTable("job_schedule")
      .set({ next_run_at: new Date().toISOString() })
      .where("name", "=", "billing reconciliation")
      .execute();
    const worker = startBillingWorker({
      db: server.db,
      billing: server.services.billing,
      logger: createLogger("silent"),
      pollMs: 60_000,
    });
    try {
      await worker.drain();
    } finally {
      await worker.stop();
    }
    expect((await overviewOf(id)).subscription?.cancelAtPeriodEnd).toBe(true);
    const left = await server.db
      .selectFrom("billing_webhook_event")
      .select("id")
      .where("id", "in", [handled.id, waiting.id])
      .execute();
    expect(left).toEqual([{ id: waiting.id }]);
  });

  it("a platform admin refunds part of an order, then the rest", async () => {
    const { id, overview } = await subscribedOrganization("Refunded");
    const orderId = overview.orders[0]?.id;
    const partial = await adminCall("POST", `/api/admin/billing/organizations/${id}/refunds`, {
      orderId,
      amount: 500,
      reason: "customer_request",
      comment: "Asked for part of it back",
    });
    expect(partial.status).toBe(200);
    expect(partial.data).toMatchObject({ orderId, amount: 500, reason: "customer_request" });
    await settleBilling(server);
    expect((await overviewOf(id)).orders[0]).toMatchObject({ status: "partially_refunded", refundedAmount: 500 });
    await expectError(
      await adminCall("POST", `/api/admin/billing/organizations/${id}/refunds`, {
        orderId,
        amount: 5000,
        reason: "other",
        comment: "Too much",
      }),
      400,
      "Refund at most 1500 (the amount not refunded yet).",
    );
    expect(
      (
        await adminCall("POST", `/api/admin/billing/organizations/${id}/refunds`, {
          orderId,
          reason: "duplicate",
          comment: "The rest",
        })
      ).status,
    ).toBe(200);
    await settleBilling(server);
    expect((await overviewOf(id)).orders[0]).toMatchObject({ status: "refunded", refundedAmount: 2000 });
    const view = await adminCall("GET", `/api/admin/billing/organizations/${id}`);
    expect((view.data as { refunds: unknown[] }).refunds).toHaveLength(2);
    await expectError(
      await owner.client.get(`/api/admin/billing/organizations/${id}`),
      403,
      "You are not allowed to access resource: billing",
    );
  });

  it("deleting an organization with a paid subscription ends the subscription at the provider first", async () => {
    const { id, overview } = await subscribedOrganization("Deleted");
    const deleted = await owner.client.post("/api/auth/organization/delete", { organizationId: id });
    expect(deleted.status).toBe(200);
    const subscription = await sandboxCall(server, "GET", `/v1/subscriptions/${overview.subscription?.id}`);
    expect(subscription.body.status).toBe("canceled");
    await settleBilling(server);
  });
});

/** Sets the provider organization's proration default (its subscription settings), as its dashboard would. */
async function setProrationBehavior(behavior: "invoice" | "prorate"): Promise<void> {
  const organizations = (await sandboxCall(server, "GET", "/v1/organizations/")).body.items as Array<{
    id: string;
    subscription_settings: Record<string, unknown>;
  }>;
  const organization = organizations[0];
  const patched = await sandboxCall(server, "PATCH", `/v1/organizations/${organization?.id}`, {
    subscription_settings: { ...organization?.subscription_settings, proration_behavior: behavior },
  });
  expect(patched.status).toBe(200);
}

/** Runs `run` while the sandbox's endpoint for the app is disabled: the provider's events in between never arrive. */

let admin: TestUser | undefined;
/** A platform admin's call (the first call promotes a fresh user through the database). */
async function adminCall(method: "GET" | "POST", path: string, body?: unknown) {
  if (!admin) {
    admin = await createVerifiedUser(server);
    await server.db.updateTable("user").set({ role: "admin" }).where("id", "=", admin.id).execute();
  }
  return method === "GET" ? admin.client.get(path) : admin.client.post(path, body ?? {});
}

describe("the provider failing", () => {
  it("a customer created by a request whose answer was lost is found again, not created twice", async () => {
    const organization = await createOrganizationWithOwner(owner, "Lost answer");
    const earlier = await sandboxCall(server, "POST", "/v1/customers/", {
      type: "team",
      external_id: organization.id,
      name: "Lost answer",
    });
    expect(earlier.status).toBe(201);
    await subscribe(server, owner, organization.id, { productId: await productIdOf(owner.client, "pro") });
    const customers = await sandboxCall(server, "GET", `/v1/customers/?limit=100`);
    const matching = (customers.body.items as Array<{ external_id?: string | null }>).filter(
      (customer) => customer.external_id === organization.id,
    );
    expect(matching).toHaveLength(1);
    expect((await overviewOf(organization.id)).plan.key).toBe("pro");
  });

  it("concurrent first checkouts of one organization create one customer and all answer", async () => {
    const organization = await createOrganizationWithOwner(owner, "Concurrent");
    const productId = await productIdOf(owner.client, "pro");
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        owner.client.post(`/api/organizations/${organization.id}/billing/checkout`, { productId }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 6 }, () => 200));
    const customers = (await sandboxCall(server, "GET", "/v1/customers/?limit=100")).body.items as Array<{
      external_id?: string | null;
    }>;
    expect(customers.filter((customer) => customer.external_id === organization.id)).toHaveLength(1);
  });

  it("concurrent usage records with one idempotency key are stored once", async () => {
    const { id } = await subscribedOrganization("Concurrent usage");
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        owner.client.post(`/api/organizations/${id}/billing/usage`, { meter: "api_request", quantity: 2, key: "same" }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 202));
    expect(new Set(answers.map((answer) => (answer.data as { id: string }).id)).size).toBe(1);
    expect(answers.filter((answer) => !(answer.data as { duplicate: boolean }).duplicate)).toHaveLength(1);
    const rows = await server.db
      .selectFrom("billing_usage_event")
      .select("id")
      .where("organization_id", "=", id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("answers 503 with nothing changed when the provider cannot be reached, while reads keep working", async () => {
    const unreachable = await createTestApp({
      env: {
        POLAR_ACCESS_TOKEN: "polar_oat_test",
        POLAR_SERVER_URL: "http://127.0.0.1:9",
        POLAR_WEBHOOK_SECRET: "whsec_unreachable",
      },
    });
    try {
      const user = await createVerifiedUser(unreachable);
      const organization = await createOrganizationWithOwner(user, "Offline");
      await expectError(
        await user.client.get("/api/billing/plans"),
        503,
        "The billing provider is not answering (list the plans); nothing was changed. Try again in a moment.",
      );
      await expectError(
        await user.client.post(`/api/organizations/${organization.id}/billing/portal`),
        503,
        "The billing provider is not answering (look up the billing customer); nothing was changed. Try again in a moment.",
      );
      expect(await unreachable.db.selectFrom("billing_customer").selectAll().execute()).toEqual([]);
      const overview = await user.client.get(`/api/organizations/${organization.id}/billing`);
      expect(overview.status).toBe(200);
      expect((overview.data as BillingOverview).plan.key).toBe("free");
      // Usage is accepted and kept for later delivery.
      expect(
        (
          await user.client.post(`/api/organizations/${organization.id}/billing/usage`, {
            meter: "api_request",
            quantity: 1,
          })
        ).status,
      ).toBe(202);
      await unreachable.services.billingWorker.drain();
      const queued = await unreachable.db.selectFrom("billing_usage_event").select(["status", "attempts"]).execute();
      expect(queued).toEqual([{ status: "pending", attempts: 1 }]);
    } finally {
      await unreachable.close();
    }
  });
});

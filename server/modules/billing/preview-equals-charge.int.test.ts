import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BillingOrder, BillingOverview, ChangePreview } from "../../../common/billing.schemas";
import { productIdOf, sandboxCall, settleBilling, subscribe } from "../../test/billing";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * Every charge equals its preview: a plan, interval or seat change is previewed, confirmed, and the sandbox clock
 * is moved past the next invoice; each order the provider made is then compared with the preview to the cent.
 */

let server: TestApp;
let owner: TestUser;

/**
 * The amounts below depend on the calendar (a month of 30 or 31 days, the day a change lands on): the file moves the
 * sandbox's clock to the next 28 November, noon UTC, first, so every run sees the same dates whatever day it is.
 */
async function startOnTheSameDate(): Promise<void> {
  const clock = (await sandboxCall(server, "GET", "/sandbox/clock")).body as { now: string };
  const now = new Date(clock.now);
  const start = new Date(Date.UTC(now.getUTCFullYear(), 10, 28, 12));
  if (start.getTime() <= now.getTime()) start.setUTCFullYear(start.getUTCFullYear() + 1);
  await advance(Math.ceil((start.getTime() - now.getTime()) / 1000));
}

beforeAll(async () => {
  server = await createTestApp({ listen: true });
  owner = await createVerifiedUser(server);
  await startOnTheSameDate();
});
afterAll(async () => server.close());

const LAUNCH20 = "Launch offer: 20% off for 3 months";

type Plan = { plan: "pro" | "team"; interval?: "month" | "year"; seats?: number };

async function overviewOf(organizationId: string): Promise<BillingOverview> {
  const response = await owner.client.get(`/api/organizations/${organizationId}/billing`);
  expect(response.status).toBe(200);
  return response.data as BillingOverview;
}

async function advance(seconds: number): Promise<void> {
  expect((await sandboxCall(server, "POST", "/sandbox/clock/advance", { seconds })).status).toBe(200);
  await settleBilling(server);
}

/** Sets the provider organization's proration default, as its dashboard would. */
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

const newOrders = (overview: BillingOverview, seen: Set<string>): BillingOrder[] =>
  overview.orders.filter((order) => !seen.has(order.id));

/**
 * Subscribes to `from` (renewed once first when `midPeriod`, so the change lands a day into a period), previews and
 * confirms the change to `to`, then moves the clock past the next invoice: the change's orders add up to `dueNow`,
 * the period ends on `nextInvoice.date`, and the next invoice is `nextInvoice.amount`.
 */
async function changeAndCompare(change: {
  from: Plan;
  to: { plan?: Plan["plan"]; interval?: "month" | "year"; seats?: number };
  behavior: "invoice" | "prorate";
  discount: boolean;
  midPeriod: boolean;
}): Promise<ChangePreview> {
  await setProrationBehavior(change.behavior);
  const organization = await createOrganizationWithOwner(owner, "Preview");
  const base = `/api/organizations/${organization.id}/billing`;
  await subscribe(server, owner, organization.id, {
    productId: await productIdOf(owner.client, change.from.plan, change.from.interval),
    ...(change.from.seats ? { seats: change.from.seats } : {}),
    ...(change.discount ? { discountCode: "LAUNCH20" } : {}),
  });
  if (change.midPeriod) await advance(31 * 86_400);
  const seen = new Set((await overviewOf(organization.id)).orders.map((order) => order.id));

  const productId = change.to.plan ? await productIdOf(owner.client, change.to.plan, change.to.interval) : undefined;
  const query = new URLSearchParams({
    ...(productId ? { productId } : {}),
    ...(change.to.seats ? { seats: String(change.to.seats) } : {}),
  });
  const previewed = await owner.client.get(`${base}/change-preview?${query}`);
  expect(previewed.status).toBe(200);
  const preview = previewed.data as ChangePreview;
  const changed = await owner.client.post(`${base}/subscription`, {
    ...(productId ? { productId } : {}),
    ...(change.to.seats ? { seats: change.to.seats } : {}),
  });
  expect(changed.status).toBe(200);
  await settleBilling(server);

  const afterChange = await overviewOf(organization.id);
  const charged = newOrders(afterChange, seen);
  expect(charged.every((order) => order.billingReason === "subscription_update")).toBe(true);
  expect(charged.reduce((sum, order) => sum + order.totalAmount, 0)).toBe(preview.dueNow);
  if (preview.dueNow === 0) expect(charged).toEqual([]);
  // The billing page says the same of the discount as the preview did.
  const discount = preview.discount && {
    name: preview.discount.name,
    appliesToNextInvoice: preview.discount.carriesOver,
  };
  expect(afterChange.subscription?.discount).toEqual(discount);
  const periodEnd = new Date(afterChange.subscription?.currentPeriodEnd ?? 0).getTime();
  expect(Math.abs(periodEnd - new Date(preview.nextInvoice.date).getTime())).toBeLessThan(60_000);

  for (const order of charged) seen.add(order.id);
  const clock = (await sandboxCall(server, "GET", "/sandbox/clock")).body as { now: string };
  await advance(Math.ceil((periodEnd - new Date(clock.now).getTime()) / 1000) + 60);
  const renewals = newOrders(await overviewOf(organization.id), seen);
  expect(renewals.map((order) => [order.billingReason, order.totalAmount])).toEqual([
    ["subscription_cycle", preview.nextInvoice.amount],
  ]);
  // Ended, so the clock moves of later cases do not renew it again and again.
  expect((await sandboxCall(server, "DELETE", `/v1/subscriptions/${afterChange.subscription?.id}`)).status).toBe(200);
  await settleBilling(server);
  return preview;
}

describe.each([false, true])("every charge equals its preview (discount LAUNCH20: %s)", (discount) => {
  const carriesOver = (value: boolean) => (discount ? { name: LAUNCH20, carriesOver: value } : null);
  afterAll(async () => setProrationBehavior("prorate"));

  it("monthly → yearly: charged now (even with prorate), the year less the unused month; nothing until a year later", async () => {
    const preview = await changeAndCompare({
      from: { plan: "pro" },
      to: { plan: "pro", interval: "year" },
      behavior: "prorate",
      discount,
      midPeriod: true,
    });
    // About 30 of the 31 days are unused: 20,000 − 1,935, and 20 % off while the offer's three months last.
    expect(preview.dueNow).toBe(discount ? 14_452 : 18_065);
    expect(preview.nextInvoice.amount).toBe(20_000);
    expect(preview.discount).toEqual(carriesOver(false));
  });

  it("yearly → monthly: the unused year is a credit, taken off the next invoices", async () => {
    const preview = await changeAndCompare({
      from: { plan: "pro", interval: "year" },
      to: { plan: "pro", interval: "month" },
      behavior: "prorate",
      discount,
      midPeriod: false,
    });
    expect(preview.dueNow).toBe(0);
    expect(preview.nextInvoice.amount).toBe(0);
    expect(preview.lines).toContainEqual({ label: "Unused time on Pro yearly", amount: -20_000, on: "nextInvoice" });
  });

  it("upgrade (Team → Pro) with invoice: the difference for the rest of the period now", async () => {
    const preview = await changeAndCompare({
      from: { plan: "team", seats: 1 },
      to: { plan: "pro" },
      behavior: "invoice",
      discount,
      midPeriod: true,
    });
    expect(preview.dueNow).toBeGreaterThan(0);
    expect(preview.discount).toEqual(carriesOver(true));
  });

  it("downgrade (Pro → Team) with invoice: nothing now, the credit comes off the next invoice", async () => {
    const preview = await changeAndCompare({
      from: { plan: "pro" },
      to: { plan: "team", seats: 1 },
      behavior: "invoice",
      discount,
      midPeriod: true,
    });
    expect(preview.dueNow).toBe(0);
    expect(preview.seats).toBe(1);
    expect(preview.nextInvoice.amount).toBeLessThan(discount ? 1200 : 1500);
  });

  it("seats up with invoice: the added seats for the rest of the period now", async () => {
    const preview = await changeAndCompare({
      from: { plan: "team", seats: 2 },
      to: { seats: 4 },
      behavior: "invoice",
      discount,
      midPeriod: true,
    });
    expect(preview.dueNow).toBeGreaterThan(0);
    expect(preview.nextInvoice.amount).toBe(discount ? 4800 : 6000);
  });

  it("seats down with prorate: the removed seats' credit comes off the next invoice", async () => {
    const preview = await changeAndCompare({
      from: { plan: "team", seats: 4 },
      to: { seats: 2 },
      behavior: "prorate",
      discount,
      midPeriod: true,
    });
    expect(preview.dueNow).toBe(0);
    expect(preview.nextInvoice.amount).toBeLessThan(discount ? 2400 : 3000);
  });
});

describe("change previews refuse what cannot be changed", () => {
  it("answers 400 for seats on a plan not priced per seat, and for the plan already held", async () => {
    const organization = await createOrganizationWithOwner(owner, "Refusals");
    const pro = await productIdOf(owner.client, "pro");
    await subscribe(server, owner, organization.id, { productId: pro });
    const base = `/api/organizations/${organization.id}/billing`;
    await expectError(
      await owner.client.get(`${base}/change-preview?seats=3`),
      400,
      "This plan is not priced per seat.",
    );
    await expectError(
      await owner.client.get(`${base}/change-preview?productId=${pro}`),
      400,
      "The organization is already on this plan.",
    );
    expect((await owner.client.get(`${base}/change-preview`)).status).toBe(400);
    expect((await owner.client.get(`${base}/change-preview?seats=0`)).status).toBe(400);
  });

  it("a change whose immediate payment is declined is not made", async () => {
    const organization = await createOrganizationWithOwner(owner, "Declined change");
    await subscribe(server, owner, organization.id, { productId: await productIdOf(owner.client, "pro") });
    const before = await overviewOf(organization.id);
    const card = await sandboxCall(server, "POST", `/sandbox/subscriptions/${before.subscription?.id}/card`, {
      token: "tok_chargeDeclined",
    });
    expect(card.status).toBe(200);
    await expectError(
      await owner.client.post(`/api/organizations/${organization.id}/billing/subscription`, {
        productId: await productIdOf(owner.client, "pro", "year"),
      }),
      502,
      "The billing provider refused to change the plan: The payment for this change was declined; " +
        "the subscription is unchanged.",
    );
    await settleBilling(server);
    const after = await overviewOf(organization.id);
    expect(after.subscription?.productId).toBe(before.subscription?.productId);
    expect(after.orders).toEqual(before.orders);
  });
});

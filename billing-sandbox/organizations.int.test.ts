import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectSchema } from "./test/openapi-validator";
import { productIdsByName, purchase, startHarness, webhooksAfter, type Harness } from "./test/harness";

let harness: Harness;
let productIds: Record<string, string>;

beforeAll(async () => {
  harness = await startHarness();
  productIds = await productIdsByName(harness);
});
afterAll(() => harness.close());
afterEach(() => {
  expect(harness.problems.splice(0)).toEqual([]);
});

async function subscribe(productName: string, organizationId: string, seats?: number) {
  const checkout = await purchase(harness, productIds[productName] as string, organizationId, { seats });
  return harness.polar.subscriptions.get(checkout.subscription_id as string);
}

const allTrue = <K extends string>(names: K[]) =>
  Object.fromEntries(names.map((name) => [name, true])) as Record<K, boolean>;
const customerEmails = allTrue([
  "order_confirmation",
  "payment_method_expiration_reminder",
  "subscription_cancellation",
  "subscription_confirmation",
  "subscription_cycled",
  "subscription_cycled_after_trial",
  "subscription_past_due",
  "subscription_paused",
  "subscription_resumed",
  "subscription_renewal_reminder",
  "subscription_revoked",
  "subscription_trial_conversion_reminder",
  "subscription_uncanceled",
  "subscription_updated",
]);

describe("the provider organization", () => {
  it("is listed and read with every required key of Organization and the provider's default settings", async () => {
    const list = await harness.polar.organizations.list({});
    expect(list.pagination).toEqual({ total_count: 1, max_page: 1 });
    const organization = list.items[0];
    if (!organization) throw new Error("no organization");
    expectSchema("Organization", organization);
    expect(organization).toMatchObject({
      id: harness.sandbox.context.organization.id,
      name: "Sandbox Merchant",
      slug: "sandbox-merchant",
      status: "active",
      proration_behavior: "prorate",
      allow_customer_updates: true,
      socials: [],
      default_presentment_currency: "usd",
      subscription_settings: {
        allow_multiple_subscriptions: true,
        proration_behavior: "prorate",
        benefit_revocation_grace_period: 0,
        prevent_trial_abuse: false,
        allow_customer_updates: true,
      },
      customer_email_settings: customerEmails,
      customer_portal_settings: { usage: { show: true }, subscription: { update_seats: true, update_plan: true } },
      capabilities: {
        checkout_payments: true,
        subscription_renewals: true,
        payouts: true,
        refunds: true,
        api_access: true,
        dashboard_access: true,
      },
    });
    expect(organization.feature_settings).toMatchObject({
      seat_based_pricing_enabled: true,
      member_model_enabled: false,
    });
    expect(await harness.polar.organizations.get(organization.id)).toEqual(organization);
    expect((await harness.polar.organizations.list({ slug: "sandbox-merchant" })).items).toHaveLength(1);
    expect((await harness.polar.organizations.list({ slug: "someone-else" })).items).toEqual([]);
    expect(await harness.request("GET", "/v1/organizations/00000000-0000-4000-8000-000000000000")).toEqual({
      status: 404,
      body: { error: "ResourceNotFound", detail: "Not found" },
    });
  });

  it("updates settings with organization.updated; subscription_settings.proration_behavior is what product and seat changes use by default", async () => {
    const { id } = harness.sandbox.context.organization;
    const mark = await harness.mark();
    const updated = await harness.polar.organizations.update(id, {
      name: "Atrium Billing",
      website: "https://atrium.example",
      socials: [{ platform: "github", url: "https://github.com/atrium" }],
      subscription_settings: {
        allow_multiple_subscriptions: false,
        proration_behavior: "invoice",
        benefit_revocation_grace_period: 7,
        prevent_trial_abuse: true,
        allow_customer_updates: true,
      },
      customer_portal_settings: { usage: { show: false }, subscription: { update_seats: true, update_plan: false } },
      feature_settings: { member_model_enabled: true },
    });
    expect(updated).toMatchObject({
      name: "Atrium Billing",
      website: "https://atrium.example",
      socials: [{ platform: "github", url: "https://github.com/atrium" }],
      proration_behavior: "invoice",
      allow_customer_updates: false,
      subscription_settings: {
        proration_behavior: "invoice",
        benefit_revocation_grace_period: 7,
        allow_multiple_subscriptions: false,
      },
      feature_settings: { member_model_enabled: true, seat_based_pricing_enabled: true },
      customer_email_settings: customerEmails,
      modified_at: expect.any(String),
    });
    expect(await webhooksAfter(harness, mark)).toEqual(["organization.updated"]);
    expect(harness.receiver.received.at(-1)?.payload.data).toEqual(updated);
    expect(await harness.polar.organizations.get(id)).toEqual(updated);

    const checkout = await harness.polar.checkouts.create({ products: [productIds["Pro monthly"] as string] });
    expect((await harness.polar.checkouts.clientGet(checkout.client_secret)).organization).toMatchObject({
      name: "Atrium Billing",
      proration_behavior: "invoice",
      allow_customer_updates: false,
    });

    const pro = await subscribe("Pro monthly", "org_default_invoice");
    await harness.polar.subscriptions.update(pro.id, { product_id: productIds["Pro yearly"] as string });
    const team = await subscribe("Team", "org_default_invoice_seats", 2);
    await harness.polar.subscriptions.update(team.id, { seats: 3 });
    for (const subscription of [pro, team]) {
      const orders = await harness.polar.orders.list({ subscription_id: subscription.id });
      expect(orders.items.map((order) => order.billing_reason)).toEqual(["subscription_update", "subscription_create"]);
    }

    await harness.polar.organizations.update(id, {
      subscription_settings: {
        allow_multiple_subscriptions: false,
        proration_behavior: "prorate",
        benefit_revocation_grace_period: 7,
        prevent_trial_abuse: true,
        allow_customer_updates: true,
      },
      website: null,
    });
    const prorated = await subscribe("Team", "org_default_prorate_seats", 2);
    await harness.polar.subscriptions.update(prorated.id, { seats: 4 });
    expect(
      (await harness.polar.orders.list({ subscription_id: prorated.id })).items.map((order) => order.billing_reason),
    ).toEqual(["subscription_create"]);
    expect((await harness.polar.subscriptions.get(prorated.id)).amount).toBe(6000);
    expect((await harness.polar.organizations.get(id)).website).toBeNull();
  });

  it("refuses a proration behavior the sandbox does not implement, partial settings objects and unknown organizations", async () => {
    const { id } = harness.sandbox.context.organization;
    const settings = {
      allow_multiple_subscriptions: true,
      benefit_revocation_grace_period: 0,
      prevent_trial_abuse: false,
      allow_customer_updates: true,
    };
    const nextPeriod = await harness.request("PATCH", `/v1/organizations/${id}`, {
      subscription_settings: { ...settings, proration_behavior: "next_period" },
    });
    expect(nextPeriod).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ["body", "subscription_settings", "proration_behavior"] }] },
    });
    const partial = await harness.request("PATCH", `/v1/organizations/${id}`, {
      subscription_settings: { proration_behavior: "invoice" },
    });
    expect(partial.status).toBe(422);
    const social = await harness.request("PATCH", `/v1/organizations/${id}`, {
      socials: [{ platform: "myspace", url: "https://myspace.example" }],
    });
    expect(social.status).toBe(422);
    expect(
      (await harness.request("PATCH", "/v1/organizations/00000000-0000-4000-8000-000000000000", { name: "Nope" }))
        .status,
    ).toBe(404);
  });

  it("keeps its id through a reset, with the settings back to their defaults", async () => {
    const scratch = await startHarness();
    try {
      const { id } = scratch.sandbox.context.organization;
      await scratch.polar.organizations.update(id, { name: "Renamed", default_tax_behavior: "inclusive" });
      expect((await scratch.request("POST", "/sandbox/reset")).status).toBe(200);
      expect(await scratch.polar.organizations.get(id)).toMatchObject({
        id,
        name: "Sandbox Merchant",
        default_tax_behavior: "exclusive",
        modified_at: null,
      });
      expect(scratch.problems).toEqual([]);
    } finally {
      await scratch.close();
    }
  });
});

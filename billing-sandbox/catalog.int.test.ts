import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBillingSandbox } from "./index";
import { SEED_DISCOUNT_CODE } from "./seed";
import { expectSchema } from "./test/openapi-validator";
import { startHarness, type Harness } from "./test/harness";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
afterEach(() => {
  expect(harness.problems.splice(0)).toEqual([]);
});

describe("seeded catalogue", () => {
  it("has Free, Pro and Team each monthly and yearly (Team per seat), the API requests meter summing quantities with a metered price and credits, the feature benefits and a discount code", async () => {
    const products = await harness.polar.products.list({ limit: 100 });
    for (const product of products.items) expectSchema("Product", product);
    const byName = Object.fromEntries(products.items.map((product) => [product.name, product]));
    expect(Object.keys(byName).sort()).toEqual(["Free", "Pro monthly", "Pro yearly", "Team", "Team yearly"]);
    expect(byName.Free).toMatchObject({
      metadata: { plan: "free" },
      prices: [{ amount_type: "fixed", price_amount: 0 }],
      benefits: [],
    });
    expect(byName["Pro monthly"]).toMatchObject({
      recurring_interval: "month",
      prices: [
        { amount_type: "fixed", price_amount: 2000 },
        { amount_type: "metered_unit", unit_amount: "0.1", meter: { name: "API requests" } },
      ],
    });
    expect(byName["Pro yearly"]).toMatchObject({
      recurring_interval: "year",
      prices: [{ amount_type: "fixed", price_amount: 20_000 }, { amount_type: "metered_unit" }],
    });
    expect(byName.Team).toMatchObject({
      recurring_interval: "month",
      metadata: { plan: "team" },
      prices: [
        {
          amount_type: "seat_based",
          seat_tiers: {
            minimum_seats: 1,
            maximum_seats: 50,
            tiers: [{ min_seats: 1, max_seats: 50, price_per_seat: 1500 }],
          },
        },
      ],
    });
    expect(byName["Team yearly"]).toMatchObject({
      recurring_interval: "year",
      metadata: { plan: "team" },
      prices: [
        {
          amount_type: "seat_based",
          seat_tiers: {
            minimum_seats: 1,
            maximum_seats: 50,
            tiers: [{ min_seats: 1, max_seats: 50, price_per_seat: 15_000 }],
          },
        },
      ],
    });
    expect([byName["Pro monthly"]?.metadata, byName["Pro yearly"]?.metadata]).toEqual([
      { plan: "pro" },
      { plan: "pro" },
    ]);
    for (const name of ["Pro monthly", "Pro yearly", "Team", "Team yearly"]) {
      expect(byName[name]?.benefits.map((benefit) => [benefit.type, benefit.description, benefit.metadata])).toEqual([
        ["custom", "Priority support", { feature: "priority_support" }],
        ["meter_credit", "10,000 API requests a month", { feature: "api_credits" }],
        ["custom", "Unlimited members and teams", { limit_members: "unlimited", limit_teams: "unlimited" }],
      ]);
    }

    const meters = await harness.polar.meters.list({});
    expect(meters.items.map((meter) => [meter.name, meter.aggregation, meter.filter])).toEqual([
      [
        "API requests",
        { func: "sum", property: "quantity" },
        { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "api_request" }] },
      ],
    ]);
    expectSchema("Meter", meters.items[0]);
    const discounts = await harness.polar.discounts.list({});
    expect(discounts.items).toMatchObject([{ code: SEED_DISCOUNT_CODE, type: "percentage", basis_points: 2000 }]);
  });

  it("seeds once per data file: a restart keeps the same catalogue and state", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "billing-sandbox-"));
    try {
      const dataFile = path.join(dir, "sandbox.sqlite");
      const first = createBillingSandbox({ dataFile, publicUrl: "http://sandbox.test" });
      const ids = first.context.store.list("product").map((product) => product.id);
      first.context.clock.advance(5000);
      await first.close();
      const second = createBillingSandbox({ dataFile, publicUrl: "http://sandbox.test" });
      expect(second.context.store.list("product").map((product) => product.id)).toEqual(ids);
      expect(second.context.clock.offsetMs()).toBe(5000);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sandbox controls", () => {
  it("resets to the seeded catalogue, a zero clock offset and the configured endpoint", async () => {
    const scratch = await startHarness();
    try {
      await scratch.polar.customers.create({ email: "reset@example.test" });
      await scratch.request("POST", "/sandbox/clock/advance", { days: 3 });
      const reset = await scratch.request("POST", "/sandbox/reset");
      expect(reset).toMatchObject({ status: 200, body: { offset_ms: 0 } });
      expect((await scratch.polar.customers.list({})).items).toEqual([]);
      expect((await scratch.polar.products.list({})).items).toHaveLength(5);
      expect((await scratch.polar.webhooks.listWebhookEndpoints({})).items.map((endpoint) => endpoint.url)).toEqual([
        scratch.receiver.url,
      ]);
      expect((await scratch.request("POST", "/sandbox/reset", undefined, "")).status).toBe(401);
      expect(scratch.problems).toEqual([]);
    } finally {
      await scratch.close();
    }
  });
});

describe("products, prices, custom fields and benefits", () => {
  it("creates every price type, attaches custom fields of each type and benefits, and archives", async () => {
    const fields = await Promise.all([
      harness.polar.customFields.create({ type: "text", slug: "company", name: "Company", properties: {} }),
      harness.polar.customFields.create({
        type: "number",
        slug: "team-size",
        name: "Team size",
        properties: { ge: 1 },
      }),
      harness.polar.customFields.create({ type: "date", slug: "start-date", name: "Start date", properties: {} }),
      harness.polar.customFields.create({ type: "checkbox", slug: "terms", name: "Terms", properties: {} }),
      harness.polar.customFields.create({
        type: "select",
        slug: "source",
        name: "Source",
        properties: { options: [{ value: "web", label: "Web" }] },
      }),
    ]);
    for (const field of fields) expectSchema("CustomField", field);
    const meter = (await harness.polar.meters.list({})).items[0];
    const product = await harness.polar.products.create({
      name: "Everything plan",
      recurring_interval: "month",
      prices: [
        {
          amount_type: "custom",
          price_currency: "usd",
          minimum_amount: 500,
          maximum_amount: 10_000,
          preset_amount: 1000,
        },
        {
          amount_type: "metered_unit",
          price_currency: "usd",
          meter_id: meter?.id as string,
          unit_amount: 0.5,
          cap_amount: 5000,
        },
      ],
      attached_custom_fields: fields.map((field, index) => ({ custom_field_id: field.id, required: index === 0 })),
      metadata: { plan: "everything" },
    });
    expectSchema("Product", product);
    expect(product.prices).toMatchObject([
      { amount_type: "custom", minimum_amount: 500, maximum_amount: 10_000, preset_amount: 1000 },
      { amount_type: "metered_unit", unit_amount: "0.5", cap_amount: 5000 },
    ]);
    expect(
      product.attached_custom_fields.map((field) => [field.custom_field.type, field.order, field.required]),
    ).toEqual([
      ["text", 0, true],
      ["number", 1, false],
      ["date", 2, false],
      ["checkbox", 3, false],
      ["select", 4, false],
    ]);

    const benefits = await Promise.all([
      harness.polar.benefits.create({ type: "custom", description: "Custom perk", properties: { note: "Hello" } }),
      harness.polar.benefits.create({
        type: "discord",
        description: "Discord role",
        properties: { guild_id: "4242", role_id: "123", kick_member: false },
      }),
      harness.polar.benefits.create({
        type: "github_repository",
        description: "Repo access",
        properties: { repository_owner: "atrium", repository_name: "pro", permission: "pull" },
      }),
      harness.polar.benefits.create({
        type: "downloadables",
        description: "Downloads",
        properties: { files: ["5b9a1c3e-7f3c-4a51-9f0e-0a1b2c3d4e5f"] },
      }),
      harness.polar.benefits.create({
        type: "license_keys",
        description: "License key",
        properties: { prefix: "ATR", activations: { limit: 3, enable_customer_admin: true } },
      }),
      harness.polar.benefits.create({
        type: "meter_credit",
        description: "Credits",
        properties: { units: 100, rollover: true, meter_id: meter?.id as string },
      }),
    ]);
    for (const benefit of benefits) expectSchema("Benefit", benefit);
    const withBenefits = await harness.polar.products.updateBenefits(product.id, {
      benefits: benefits.map((benefit) => benefit.id),
    });
    expect(withBenefits.benefits.map((benefit) => benefit.type)).toEqual([
      "custom",
      "discord",
      "github_repository",
      "downloadables",
      "license_keys",
      "meter_credit",
    ]);

    const renamed = await harness.polar.products.update(product.id, {
      name: "Everything plan v2",
      prices: [{ id: product.prices[0]?.id as string }],
    });
    expect(renamed.name).toBe("Everything plan v2");
    expect(renamed.prices.map((price) => price.id)).toEqual([product.prices[0]?.id]);
    const archived = await harness.polar.products.update(product.id, { is_archived: true });
    expect(archived.is_archived).toBe(true);
    const active = await harness.polar.products.list({ is_archived: false, limit: 100 });
    expect(active.items.map((item) => item.id)).not.toContain(product.id);
    expect((await harness.polar.products.get(product.id)).is_archived).toBe(true);
  });

  it("coerces a free price to a fixed price of 0 and validates bodies with 422", async () => {
    const free = await harness.polar.products.create({
      name: "Free one-time",
      prices: [{ amount_type: "free", price_currency: "usd" } as never],
    });
    expect(free.prices).toMatchObject([{ amount_type: "fixed", price_amount: 0 }]);
    const bad = await harness.request("POST", "/v1/products/", { name: "x", prices: [] });
    expect(bad.status).toBe(422);
    const badBenefit = await harness.request("POST", "/v1/benefits/", {
      type: "meter_credit",
      description: "Credits",
      properties: { units: 0 },
    });
    expect(badBenefit.status).toBe(422);
    expect(badBenefit.body).toMatchObject({
      detail: [{ loc: ["body", "properties", "units"] }, { loc: ["body", "properties", "meter_id"] }],
    });
  });

  it("lists, updates and deletes benefits and discounts", async () => {
    const benefit = await harness.polar.benefits.create({
      type: "custom",
      description: "Temporary",
      properties: { note: null },
    });
    const updated = await harness.polar.benefits.update(benefit.id, { type: "custom", description: "Renamed perk" });
    expect(updated.description).toBe("Renamed perk");
    expect((await harness.request("DELETE", `/v1/benefits/${benefit.id}`)).status).toBe(204);
    expect((await harness.request("GET", `/v1/benefits/${benefit.id}`)).status).toBe(404);

    const discount = await harness.polar.discounts.create({
      name: "Ten off",
      type: "fixed",
      amount: 1000,
      currency: "usd",
      duration: "repeating",
      duration_in_months: 2,
      code: "TENOFF",
    });
    expect(discount).toMatchObject({
      type: "fixed",
      amount: 1000,
      duration: "repeating",
      duration_in_months: 2,
      redemptions_count: 0,
    });
    const patched = await harness.polar.discounts.update(discount.id, { max_redemptions: 5 });
    expect(patched.max_redemptions).toBe(5);
    expect((await harness.request("DELETE", `/v1/discounts/${discount.id}`)).status).toBe(204);
    const missingMonths = await harness.request("POST", "/v1/discounts/", {
      name: "x",
      type: "percentage",
      basis_points: 100,
      duration: "repeating",
    });
    expect(missingMonths.status).toBe(422);
  });
});

describe("customers", () => {
  it("creates, reads, updates and deletes by id and by external id, with the provider's uniqueness rules", async () => {
    const customer = await harness.polar.customers.create({
      email: "owner@acme.example",
      name: "Acme",
      external_id: "org_acme",
      metadata: { plan: "free" },
    });
    expectSchema("Customer", customer);
    expect(customer).toMatchObject({ type: "individual", external_id: "org_acme", deleted_at: null });
    expect((await harness.polar.customers.get(customer.id)).email).toBe("owner@acme.example");
    expect((await harness.polar.customers.getExternal("org_acme")).id).toBe(customer.id);
    expect((await harness.polar.customers.list({ email: "OWNER@acme.example" })).items.map((item) => item.id)).toEqual([
      customer.id,
    ]);
    expect((await harness.polar.customers.list({ metadata: { plan: "free" } })).items.map((item) => item.id)).toEqual([
      customer.id,
    ]);

    const duplicateEmail = await harness.request("POST", "/v1/customers/", { email: "Owner@Acme.example" });
    expect(duplicateEmail).toEqual({
      status: 422,
      body: {
        detail: [
          { loc: ["body", "email"], msg: "A customer with this email address already exists.", type: "value_error" },
        ],
      },
    });
    const duplicateExternal = await harness.request("POST", "/v1/customers/", {
      email: "other@acme.example",
      external_id: "org_acme",
    });
    expect(duplicateExternal.status).toBe(422);

    const renamed = await harness.polar.customers.update(customer.id, { name: "Acme Inc." });
    expect(renamed.name).toBe("Acme Inc.");
    const byExternal = await harness.polar.customers.updateExternal("org_acme", { metadata: { plan: "pro" } });
    expect(byExternal.metadata).toEqual({ plan: "pro" });
    const changeExternal = await harness.request("PATCH", `/v1/customers/${customer.id}`, { external_id: "org_other" });
    expect(changeExternal).toEqual({
      status: 422,
      body: {
        detail: [{ loc: ["body", "external_id"], msg: "Customer external ID cannot be updated.", type: "value_error" }],
      },
    });

    const state = await harness.polar.customers.getStateExternal("org_acme");
    expectSchema("CustomerState", state);
    expect(state).toMatchObject({ active_subscriptions: [], granted_benefits: [], active_meters: [] });
    expect((await harness.request("GET", "/v1/customers/external/org_nobody/state")).body).toEqual({
      error: "ResourceNotFound",
      detail: "Not found",
    });

    await harness.polar.customers.deleteExternal("org_acme");
    expect((await harness.request("GET", `/v1/customers/${customer.id}`)).status).toBe(404);
    const second = await harness.polar.customers.create({ email: "gone@acme.example" });
    await harness.polar.customers.delete(second.id);
    expect((await harness.request("GET", `/v1/customers/${second.id}`)).status).toBe(404);
  });

  it("rejects a missing bearer token with 401, and only the configured token when one is set", async () => {
    expect((await harness.request("GET", "/v1/products/", undefined, "")).status).toBe(401);
    const locked = await startHarness({ accessToken: "sandbox-secret-token" });
    try {
      expect((await locked.request("GET", "/v1/products/", undefined, "wrong")).status).toBe(401);
      expect((await locked.request("GET", "/v1/products/", undefined, "sandbox-secret-token")).status).toBe(200);
    } finally {
      await locked.close();
    }
  });
});

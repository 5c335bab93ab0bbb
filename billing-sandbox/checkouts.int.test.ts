import { webhooks } from "@polar-sh/sdk/2026-10";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SEED_DISCOUNT_CODE } from "./seed";
import { expectSchema } from "./test/openapi-validator";
import { startHarness, waitFor, webhooksAfter, type Harness } from "./test/harness";

let harness: Harness;
let products: Record<string, { id: string; prices: { id: string; amount_type: string }[] }>;

beforeAll(async () => {
  harness = await startHarness();
  const list = await harness.polar.products.list({ limit: 100 });
  products = Object.fromEntries(list.items.map((product) => [product.name, product]));
});
afterAll(() => harness.close());
afterEach(() => {
  expect(harness.problems.splice(0)).toEqual([]);
});

const productId = (name: string) => {
  const product = products[name];
  if (!product) throw new Error(`no product ${name}`);
  return product.id;
};

describe("hosted checkout through the client API", () => {
  it("creates an open checkout with an absolute url, the price and a success_url with the checkout id", async () => {
    const checkout = await harness.polar.checkouts.create({
      products: [productId("Pro monthly")],
      external_customer_id: "org_create",
      metadata: { organization_id: "org_create" },
      success_url: "https://app.example/billing/success?checkout={CHECKOUT_ID}",
    });
    expectSchema("Checkout", checkout);
    expect(checkout.status).toBe("open");
    expect(checkout.url).toBe(`${harness.url}/checkout/${checkout.client_secret}`);
    expect(checkout.client_secret).toMatch(/^polar_c_/);
    expect(checkout.success_url).toBe(`https://app.example/billing/success?checkout=${checkout.id}`);
    expect([
      checkout.amount,
      checkout.discount_amount,
      checkout.net_amount,
      checkout.tax_amount,
      checkout.total_amount,
    ]).toEqual([2000, 0, 2000, 0, 2000]);
    expect(checkout.metadata).toEqual({ organization_id: "org_create" });
    expect(checkout.customer_id).toBeNull();

    const got = await harness.polar.checkouts.get(checkout.id);
    expect(got.id).toBe(checkout.id);
    const page = await fetch(checkout.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('src="../assets/checkout-page/checkout.js"');
  });

  it("pays a subscription checkout and sends the provider's webhooks in order, signed as the provider signs", async () => {
    const mark = await harness.mark();
    const checkout = await harness.polar.checkouts.create({
      products: [productId("Pro monthly")],
      external_customer_id: "org_paid",
      metadata: { organization_id: "org_paid" },
      success_url: "https://app.example/done/{CHECKOUT_ID}",
    });
    const publicCheckout = await harness.polar.checkouts.clientGet(checkout.client_secret);
    expectSchema("CheckoutPublic", publicCheckout);
    expect(publicCheckout.organization.name).toBe("Sandbox Merchant");

    const withCode = await harness.polar.checkouts.clientUpdate(checkout.client_secret, {
      customer_email: "owner@paid.example",
      customer_name: "Paid Owner",
      discount_code: SEED_DISCOUNT_CODE,
    });
    expectSchema("CheckoutPublic", withCode);
    expect([
      withCode.amount,
      withCode.discount_amount,
      withCode.net_amount,
      withCode.tax_amount,
      withCode.total_amount,
    ]).toEqual([2000, 400, 1600, 0, 1600]);
    expect(withCode.discount).toMatchObject({
      code: SEED_DISCOUNT_CODE,
      type: "percentage",
      basis_points: 2000,
      duration: "repeating",
      duration_in_months: 3,
    });

    const confirmed = await harness.polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_visa",
    });
    expectSchema("CheckoutPublicConfirmed", confirmed);
    expect(confirmed.status).toBe("confirmed");
    expect(confirmed.customer_session_token).toMatch(/^polar_cst_/);

    const types = await webhooksAfter(harness, mark);
    expect(types).toEqual([
      "checkout.created",
      "checkout.updated",
      "checkout.updated",
      "customer.created",
      "subscription.created",
      "subscription.active",
      "subscription.updated",
      "order.created",
      "order.updated",
      "order.paid",
      "checkout.updated",
      "benefit_grant.created",
      "benefit_grant.created",
      "benefit_grant.created",
      "customer.state_changed",
    ]);
    const deliveries = harness.receiver.received.slice(mark);
    const statuses = deliveries
      .filter((delivery) => delivery.payload.type === "checkout.updated")
      .map((delivery) => delivery.payload.data.status);
    expect(statuses).toEqual(["open", "confirmed", "succeeded"]);

    const verifier = new Webhook(Buffer.from(harness.secret, "utf-8").toString("base64"));
    for (const delivery of deliveries) {
      const headers = {
        "webhook-id": String(delivery.headers["webhook-id"]),
        "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
        "webhook-signature": String(delivery.headers["webhook-signature"]),
      };
      expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(delivery.headers["user-agent"]).toBe("polar.sh webhooks");
      expect(verifier.verify(delivery.body, headers)).toEqual(delivery.payload);
      expect(await webhooks.validateEvent(delivery.body, headers, harness.secret)).toEqual(delivery.payload);
    }

    const after = await harness.polar.checkouts.get(checkout.id);
    expect(after.status).toBe("succeeded");
    expect(after.subscription_id).toEqual(expect.any(String));
    const subscription = await harness.polar.subscriptions.get(after.subscription_id as string);
    expectSchema("Subscription", subscription);
    expect(subscription).toMatchObject({
      status: "active",
      checkout_id: checkout.id,
      metadata: { organization_id: "org_paid" },
      discount_id: withCode.discount_id,
      amount: 2000,
    });
    expect(subscription.customer.external_id).toBe("org_paid");

    const orders = await harness.polar.orders.list({ customer_id: subscription.customer_id });
    expect(orders.items).toHaveLength(1);
    expect(orders.items[0]).toMatchObject({
      billing_reason: "subscription_create",
      status: "paid",
      subtotal_amount: 2000,
      discount_amount: 400,
      total_amount: 1600,
      metadata: { organization_id: "org_paid" },
    });
    const discount = await harness.polar.discounts.get(withCode.discount_id as string);
    expect(discount.redemptions_count).toBe(1);
  });

  it("declines 4000 0000 0000 0002 (tok_chargeDeclined): 400 PaymentError, checkout failed, a second card pays", async () => {
    const checkout = await harness.polar.checkouts.create({
      products: [productId("Pro yearly")],
      external_customer_id: "org_declined",
    });
    await harness.polar.checkouts.clientUpdate(checkout.client_secret, { customer_email: "owner@declined.example" });
    const declined = await harness.request("POST", `/v1/checkouts/client/${checkout.client_secret}/confirm`, {
      confirmation_token_id: "tok_chargeDeclined",
    });
    expect(declined).toEqual({ status: 400, body: { error: "PaymentError", detail: "Your card was declined." } });
    expect((await harness.polar.checkouts.get(checkout.id)).status).toBe("failed");
    expect(await harness.polar.customers.list({ email: "owner@declined.example" })).toMatchObject({
      items: [],
      pagination: { total_count: 0, max_page: 0 },
    });

    const paid = await harness.polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_visa",
    });
    expect(paid.status).toBe("confirmed");
    expect((await harness.polar.checkouts.get(checkout.id)).status).toBe("succeeded");
  });

  it("holds a first payment that needs the customer's confirmation (tok_threeDSecureRequired): incomplete subscription, pending order, nothing granted", async () => {
    const mark = await harness.mark();
    const checkout = await harness.polar.checkouts.create({
      products: [productId("Pro monthly")],
      external_customer_id: "org_3ds",
      customer_email: "owner@3ds.example",
      success_url: "https://app.example/done/{CHECKOUT_ID}",
    });
    const confirmed = await harness.polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_threeDSecureRequired",
    });
    expect(confirmed).toMatchObject({
      status: "confirmed",
      payment_processor_metadata: { intent_status: "requires_action" },
    });
    expect(confirmed.customer_session_token).toMatch(/^polar_cst_/);
    expect(await webhooksAfter(harness, mark)).toEqual([
      "checkout.created",
      "checkout.updated",
      "customer.created",
      "subscription.created",
      "subscription.updated",
      "order.created",
    ]);
    const held = await harness.polar.checkouts.get(checkout.id);
    expect(held).toMatchObject({
      status: "confirmed",
      subscription_id: expect.any(String),
      payment_processor_metadata: { intent_status: "requires_action" },
    });
    const subscription = await harness.polar.subscriptions.get(held.subscription_id as string);
    expect(subscription).toMatchObject({ status: "incomplete", amount: 2000, checkout_id: checkout.id });
    const orders = await harness.polar.orders.list({ checkout_id: checkout.id });
    expect(orders.items).toMatchObject([
      { status: "pending", paid: false, billing_reason: "subscription_create", total_amount: 2000, due_amount: 2000 },
    ]);
    const state = await harness.polar.customers.getStateExternal("org_3ds");
    expect(state).toMatchObject({ active_subscriptions: [], granted_benefits: [] });
    expect((await harness.polar.customers.listPaymentMethodsExternal("org_3ds")).items).toMatchObject([
      { type: "card", method_metadata: { brand: "visa", last4: "3155" }, is_default: true },
    ]);

    const next = await harness.mark();
    const completed = await harness.request("POST", `/sandbox/subscriptions/${subscription.id}/complete-payment`);
    expect(completed).toMatchObject({ status: 200, body: { id: subscription.id, status: "active" } });
    expectSchema("Subscription", completed.body);
    expect(await webhooksAfter(harness, next)).toEqual([
      "subscription.updated",
      "subscription.active",
      "order.updated",
      "order.paid",
      "checkout.updated",
      "benefit_grant.created",
      "benefit_grant.created",
      "benefit_grant.created",
      "customer.state_changed",
    ]);
    expect(await harness.polar.checkouts.get(checkout.id)).toMatchObject({
      status: "succeeded",
      payment_processor_metadata: { intent_status: "succeeded" },
    });
    expect((await harness.polar.orders.get(orders.items[0]?.id as string)).status).toBe("paid");
    const started = await harness.polar.customers.getStateExternal("org_3ds");
    expect(started.active_subscriptions.map((item) => [item.id, item.status])).toEqual([[subscription.id, "active"]]);
    expect(started.granted_benefits).toHaveLength(3);
    expect(await harness.request("POST", `/sandbox/subscriptions/${subscription.id}/complete-payment`)).toMatchObject({
      status: 403,
      body: { error: "SubscriptionNotIncomplete" },
    });
  });

  it("expires an unconfirmed first payment after 23 hours: incomplete_expired, order void, checkout failed, never granted", async () => {
    const checkout = await harness.polar.checkouts.create({
      products: [productId("Team")],
      external_customer_id: "org_3ds_expired",
      customer_email: "owner@3ds-expired.example",
      seats: 2,
    });
    await harness.polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_threeDSecureRequired",
    });
    const subscriptionId = (await harness.polar.checkouts.get(checkout.id)).subscription_id as string;
    const subscription = await harness.polar.subscriptions.get(subscriptionId);

    let mark = await harness.mark();
    await harness.request("POST", "/sandbox/clock/advance", { seconds: 23 * 3600 - 60 });
    expect(await webhooksAfter(harness, mark, subscription.customer_id)).toEqual([]);
    mark = await harness.mark();
    await harness.request("POST", "/sandbox/clock/advance", { seconds: 61 });
    expect(await webhooksAfter(harness, mark, subscription.customer_id)).toEqual([
      "subscription.updated",
      "order.updated",
      "checkout.updated",
    ]);
    const payloads = harness.receiver.received
      .slice(mark)
      .filter((webhook) => webhook.payload.data.customer_id === subscription.customer_id);
    expect(payloads.map((webhook) => webhook.payload.data.status)).toEqual(["incomplete_expired", "void", "failed"]);

    const expiredAt = new Date(new Date(subscription.created_at).getTime() + 23 * 3600 * 1000).toISOString();
    expect(await harness.polar.subscriptions.get(subscriptionId)).toMatchObject({
      status: "incomplete_expired",
      ended_at: expiredAt,
      ends_at: expiredAt,
    });
    expect((await harness.polar.orders.list({ checkout_id: checkout.id })).items).toMatchObject([
      { status: "void", due_amount: 0 },
    ]);
    expect(await harness.polar.checkouts.get(checkout.id)).toMatchObject({
      status: "failed",
      payment_processor_metadata: {},
    });
    expect(await harness.request("POST", `/sandbox/subscriptions/${subscriptionId}/complete-payment`)).toMatchObject({
      status: 403,
    });
    expect(await harness.polar.customers.getStateExternal("org_3ds_expired")).toMatchObject({
      active_subscriptions: [],
      granted_benefits: [],
    });
    expect(
      harness.receiver.received.some(
        (webhook) =>
          webhook.payload.type === "benefit_grant.created" &&
          webhook.payload.data.customer_id === subscription.customer_id,
      ),
    ).toBe(false);

    // The failed checkout takes another card before it expires, and that subscription starts at once.
    await harness.polar.checkouts.clientConfirm(checkout.client_secret, { confirmation_token_id: "tok_visa" });
    const retried = await harness.polar.checkouts.get(checkout.id);
    expect(retried.status).toBe("succeeded");
    expect(retried.subscription_id).not.toBe(subscriptionId);
    expect((await harness.polar.subscriptions.get(retried.subscription_id as string)).status).toBe("active");
  });

  it("starts a trial once its card is confirmed: trialing, without subscription.active", async () => {
    const product = await harness.polar.products.create({
      name: "Trial with confirmation",
      recurring_interval: "month",
      trial_interval: "day",
      trial_interval_count: 14,
      prices: [{ amount_type: "fixed", price_amount: 1200, price_currency: "usd" }],
    });
    const checkout = await harness.polar.checkouts.create({
      products: [product.id],
      customer_email: "trial@3ds.example",
    });
    await harness.polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_threeDSecureRequired",
    });
    const subscriptionId = (await harness.polar.checkouts.get(checkout.id)).subscription_id as string;
    expect(await harness.polar.subscriptions.get(subscriptionId)).toMatchObject({
      status: "incomplete",
      trial_end: expect.any(String),
    });
    expect((await harness.polar.orders.list({ checkout_id: checkout.id })).items).toMatchObject([
      { status: "pending", total_amount: 0 },
    ]);

    const mark = await harness.mark();
    const completed = await harness.request("POST", `/sandbox/subscriptions/${subscriptionId}/complete-payment`);
    expect(completed).toMatchObject({ status: 200, body: { status: "trialing" } });
    expect(await webhooksAfter(harness, mark)).toEqual([
      "subscription.updated",
      "order.updated",
      "order.paid",
      "checkout.updated",
      "customer.state_changed",
    ]);
  });

  it("accepts the confirmation card for subscriptions only", async () => {
    const product = await harness.polar.products.create({
      name: "Consulting hour",
      prices: [{ amount_type: "fixed", price_amount: 9000, price_currency: "usd" }],
    });
    const checkout = await harness.polar.checkouts.create({
      products: [product.id],
      customer_email: "once@3ds.example",
    });
    const refused = await harness.request("POST", `/v1/checkouts/client/${checkout.client_secret}/confirm`, {
      confirmation_token_id: "tok_threeDSecureRequired",
    });
    expect(refused).toMatchObject({ status: 422, body: { detail: [{ loc: ["body", "confirmation_token_id"] }] } });
    expect((await harness.polar.checkouts.get(checkout.id)).status).toBe("open");
  });

  it("requires a test card token, and refuses a checkout that is already paid", async () => {
    const checkout = await harness.polar.checkouts.create({
      products: [productId("Pro monthly")],
      customer_email: "card@required.example",
    });
    const missing = await harness.request("POST", `/v1/checkouts/client/${checkout.client_secret}/confirm`, {});
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ detail: [{ loc: ["body", "confirmation_token_id"] }] });
    await harness.polar.checkouts.clientConfirm(checkout.client_secret, { confirmation_token_id: "tok_visa" });
    const again = await harness.request("POST", `/v1/checkouts/client/${checkout.client_secret}/confirm`, {
      confirmation_token_id: "tok_visa",
    });
    expect(again.status).toBe(403);
  });

  it("sells a one-time product as a purchase order without a subscription", async () => {
    const product = await harness.polar.products.create({
      name: "Setup call",
      prices: [{ amount_type: "fixed", price_amount: 5000, price_currency: "usd" }],
    });
    const mark = await harness.mark();
    const checkout = await harness.polar.checkouts.create({
      products: [product.id],
      customer_email: "once@buyer.example",
    });
    await harness.polar.checkouts.clientConfirm(checkout.client_secret, { confirmation_token_id: "tok_visa" });
    expect(await webhooksAfter(harness, mark)).toEqual([
      "checkout.created",
      "checkout.updated",
      "customer.created",
      "order.created",
      "order.updated",
      "order.paid",
      "checkout.updated",
      "customer.state_changed",
    ]);
    const orders = await harness.polar.orders.list({ product_id: product.id });
    expect(orders.items[0]).toMatchObject({
      billing_reason: "purchase",
      status: "paid",
      total_amount: 5000,
      subscription_id: null,
    });
  });

  it("enforces discount dates, max_redemptions and product restrictions at checkout", async () => {
    const limited = await harness.polar.discounts.create({
      name: "One use",
      type: "fixed",
      amount: 500,
      currency: "usd",
      duration: "once",
      code: "ONCEONLY",
      max_redemptions: 1,
    });
    expectSchema("Discount", limited);
    const first = await harness.polar.checkouts.create({
      products: [productId("Pro monthly")],
      customer_email: "first@discount.example",
    });
    const applied = await harness.polar.checkouts.clientUpdate(first.client_secret, { discount_code: "onceonly" });
    expect([applied.discount_amount, applied.total_amount]).toEqual([500, 1500]);
    await harness.polar.checkouts.clientConfirm(first.client_secret, { confirmation_token_id: "tok_visa" });
    expect((await harness.polar.discounts.get(limited.id)).redemptions_count).toBe(1);

    const second = await harness.polar.checkouts.create({
      products: [productId("Pro monthly")],
      customer_email: "second@discount.example",
    });
    const exhausted = await harness.request("PATCH", `/v1/checkouts/client/${second.client_secret}`, {
      discount_code: "ONCEONLY",
    });
    expect(exhausted.status).toBe(422);
    expect(exhausted.body).toMatchObject({ detail: [{ loc: ["body", "discount_code"] }] });

    const future = await harness.polar.discounts.create({
      name: "Later",
      type: "percentage",
      basis_points: 1000,
      duration: "forever",
      code: "LATER10",
      starts_at: "2099-01-01T00:00:00Z",
    });
    expect(
      (await harness.request("PATCH", `/v1/checkouts/client/${second.client_secret}`, { discount_code: "LATER10" }))
        .status,
    ).toBe(422);
    const expired = await harness.polar.discounts.create({
      name: "Gone",
      type: "percentage",
      basis_points: 1000,
      duration: "forever",
      code: "GONE10",
      ends_at: "2000-01-01T00:00:00Z",
    });
    expect(
      (await harness.request("PATCH", `/v1/checkouts/client/${second.client_secret}`, { discount_code: "GONE10" }))
        .status,
    ).toBe(422);
    const teamOnly = await harness.polar.discounts.create({
      name: "Team only",
      type: "percentage",
      basis_points: 5000,
      duration: "forever",
      code: "TEAM50",
      products: [productId("Team")],
    });
    expect(
      (await harness.request("PATCH", `/v1/checkouts/client/${second.client_secret}`, { discount_code: "TEAM50" }))
        .status,
    ).toBe(422);
    expect([future.starts_at, expired.ends_at, teamOnly.products.map((product) => product.id)]).toEqual([
      "2099-01-01T00:00:00.000Z",
      "2000-01-01T00:00:00.000Z",
      [productId("Team")],
    ]);
    const unknown = await harness.request("PATCH", `/v1/checkouts/client/${second.client_secret}`, {
      discount_code: "NOPE",
    });
    expect(unknown.status).toBe(422);
  });

  it("links a checkout to an existing customer by external id and prices seats on the Team plan", async () => {
    const customer = await harness.polar.customers.create({
      email: "team@linked.example",
      external_id: "org_team",
      name: "Team Org",
    });
    const checkout = await harness.polar.checkouts.create({
      products: [productId("Team")],
      external_customer_id: "org_team",
      seats: 3,
    });
    expect(checkout).toMatchObject({
      customer_id: customer.id,
      customer_email: "team@linked.example",
      seats: 3,
      amount: 4500,
      total_amount: 4500,
    });
    const completed = await harness.request("POST", `/sandbox/checkouts/${checkout.id}/complete`, {});
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ status: "succeeded", customer_id: customer.id });
    const subscriptions = await harness.polar.subscriptions.list({ external_customer_id: "org_team" });
    expect(subscriptions.items[0]).toMatchObject({ seats: 3, amount: 4500, status: "active" });
  });

  it("fails a checkout without a browser and expires open checkouts after 24 hours", async () => {
    const toFail = await harness.polar.checkouts.create({ products: [productId("Pro monthly")] });
    const failed = await harness.request("POST", `/sandbox/checkouts/${toFail.id}/fail`, {
      customer_email: "fail@control.example",
    });
    expect(failed.body).toMatchObject({ status: "failed" });

    const toExpire = await harness.polar.checkouts.create({ products: [productId("Pro monthly")] });
    const mark = await harness.mark();
    await harness.request("POST", "/sandbox/clock/advance", { seconds: 24 * 3600 + 1 });
    expect((await harness.polar.checkouts.get(toExpire.id)).status).toBe("expired");
    const expiredConfirm = await harness.request("POST", `/v1/checkouts/client/${toExpire.client_secret}/confirm`, {
      confirmation_token_id: "tok_visa",
      customer_email: "late@buyer.example",
    });
    expect(expiredConfirm).toEqual({
      status: 410,
      body: { error: "ExpiredCheckoutError", detail: "This checkout session has expired." },
    });
    await waitFor(() => harness.typesSince(mark).includes("checkout.expired"), 5000, "checkout.expired");
  });

  it("subscribes to the Free plan without a card", async () => {
    const checkout = await harness.polar.checkouts.create({
      products: [productId("Free")],
      external_customer_id: "org_free",
      customer_email: "free@plan.example",
    });
    expect(checkout).toMatchObject({
      amount: 0,
      total_amount: 0,
      is_free_product_price: true,
      is_payment_required: false,
      is_payment_form_required: false,
    });
    const confirmed = await harness.polar.checkouts.clientConfirm(checkout.client_secret, {});
    expect(confirmed.status).toBe("confirmed");
    const state = await harness.polar.customers.getStateExternal("org_free");
    expect(state.active_subscriptions).toMatchObject([{ product_id: productId("Free"), status: "active", amount: 0 }]);
  });

  it("enforces seat limits and required custom fields", async () => {
    expect((await harness.request("POST", "/v1/checkouts/", { products: [productId("Team")], seats: 51 })).status).toBe(
      422,
    );
    const field = await harness.polar.customFields.create({
      type: "checkbox",
      slug: "accept-terms",
      name: "Accept terms",
      properties: {},
    });
    const product = await harness.polar.products.create({
      name: "With terms",
      prices: [{ amount_type: "fixed", price_amount: 100, price_currency: "usd" }],
      attached_custom_fields: [{ custom_field_id: field.id, required: true }],
    });
    const checkout = await harness.polar.checkouts.create({
      products: [product.id],
      customer_email: "terms@buyer.example",
    });
    const refused = await harness.request("POST", `/v1/checkouts/client/${checkout.client_secret}/confirm`, {
      confirmation_token_id: "tok_visa",
    });
    expect(refused).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ["body", "custom_field_data", "accept-terms"] }] },
    });
    const paid = await harness.polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_visa",
      custom_field_data: { "accept-terms": true },
    });
    expect(paid.custom_field_data).toEqual({ "accept-terms": true });
  });

  it("answers 404 ResourceNotFound for unknown checkouts and 422 for bad bodies", async () => {
    expect(await harness.request("GET", "/v1/checkouts/00000000-0000-4000-8000-000000000000")).toEqual({
      status: 404,
      body: { error: "ResourceNotFound", detail: "Not found" },
    });
    const bad = await harness.request("POST", "/v1/checkouts/", { products: [] });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ detail: [{ loc: ["body", "products"] }] });
  });
});

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

/** Subscribes the customer with this external id through a checkout paid by the sandbox control. */
async function subscribe(productName: string, externalId: string, customerEmail?: string) {
  const checkout = await purchase(harness, productIds[productName] as string, externalId, {
    customerEmail: customerEmail ?? null,
  });
  return harness.polar.subscriptions.get(checkout.subscription_id as string);
}

describe("team customers", () => {
  it("creates teams with or without an e-mail address, unique per organization when given, typed team on the wire and in their state", async () => {
    const mark = await harness.mark();
    const team = await harness.polar.customers.create({
      type: "team",
      external_id: "org_team_a",
      name: "Team A",
      metadata: { seats: 3 },
    });
    expectSchema("CustomerTeam", team);
    expect(team).toMatchObject({
      type: "team",
      email: null,
      external_id: "org_team_a",
      name: "Team A",
      metadata: { seats: 3 },
      default_payment_method_id: null,
    });
    expect(await webhooksAfter(harness, mark)).toEqual(["customer.created"]);
    const created = harness.receiver.received.at(-1)?.payload.data;
    expect(created).toMatchObject({ id: team.id, type: "team", email: null });

    const another = await harness.request("POST", "/v1/customers/", { type: "team", name: "Team B" });
    expect(another).toMatchObject({ status: 201, body: { type: "team", email: null, external_id: null } });
    const withEmail = await harness.polar.customers.create({
      type: "team",
      email: "billing@team-c.example",
      external_id: "org_team_c",
    });
    expect(withEmail).toMatchObject({ type: "team", email: "billing@team-c.example" });
    const individual = await harness.polar.customers.create({ email: "person@team-c.example" });
    expect(individual.type).toBe("individual");

    const sameEmail = await harness.request("POST", "/v1/customers/", {
      type: "team",
      email: "BILLING@team-c.example",
    });
    expect(sameEmail).toEqual({
      status: 422,
      body: {
        detail: [
          { loc: ["body", "email"], msg: "A customer with this email address already exists.", type: "value_error" },
        ],
      },
    });
    const individualTakesTeamEmail = await harness.request("POST", "/v1/customers/", {
      email: "billing@team-c.example",
    });
    expect(individualTakesTeamEmail.status).toBe(422);
    const individualWithoutEmail = await harness.request("POST", "/v1/customers/", {
      type: "individual",
      name: "Nobody",
    });
    expect(individualWithoutEmail).toMatchObject({ status: 422, body: { detail: [{ loc: ["body", "email"] }] } });

    const state = await harness.polar.customers.getStateExternal("org_team_a");
    expectSchema("CustomerStateTeam", state);
    expect(state).toMatchObject({ type: "team", email: null, active_subscriptions: [], granted_benefits: [] });
    expect(
      (await harness.polar.customers.list({ email: "billing@team-c.example" })).items.map((item) => item.id),
    ).toEqual([withEmail.id]);
    expect((await harness.polar.customers.list({ query: "team b" })).items.map((item) => item.name)).toEqual([
      "Team B",
    ]);
  });

  it("links a checkout by external id to a team without an e-mail address; the address typed at checkout never fails it or moves another customer's", async () => {
    const owner = await harness.polar.customers.create({
      email: "owner@shared.example",
      external_id: "org_owner_personal",
    });
    const team = await harness.polar.customers.create({
      type: "team",
      external_id: "org_linked_team",
      name: "Linked Team",
    });
    const checkout = await harness.polar.checkouts.create({
      products: [productIds["Pro monthly"] as string],
      external_customer_id: "org_linked_team",
    });
    expect(checkout).toMatchObject({
      customer_id: team.id,
      customer_email: null,
      external_customer_id: "org_linked_team",
    });
    // On the hosted page the owner types the address another customer already has.
    await harness.polar.checkouts.clientUpdate(checkout.client_secret, { customer_email: "owner@shared.example" });
    const mark = await harness.mark();
    const confirmed = await harness.polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_visa",
    });
    expect(confirmed).toMatchObject({ status: "confirmed", customer_id: team.id });
    expect(confirmed.customer_session_token).toMatch(/^polar_cst_/);
    const types = await webhooksAfter(harness, mark);
    expect(types).not.toContain("customer.updated");
    expect(types).not.toContain("customer.created");

    const after = await harness.polar.checkouts.get(checkout.id);
    expect(after).toMatchObject({ status: "succeeded", customer_id: team.id, customer_email: "owner@shared.example" });
    expect(await harness.polar.customers.get(team.id)).toMatchObject({ type: "team", email: null });
    expect(await harness.polar.customers.get(owner.id)).toMatchObject({
      email: "owner@shared.example",
      external_id: "org_owner_personal",
    });
    const subscription = await harness.polar.subscriptions.get(after.subscription_id as string);
    expect(subscription.customer).toMatchObject({ id: team.id, type: "team" });
    const state = await harness.polar.customers.getStateExternal("org_linked_team");
    expectSchema("CustomerStateTeam", state);
    expect(state.active_subscriptions.map((item) => item.id)).toEqual([subscription.id]);

    const session = await harness.polar.customerSessions.create({ external_customer_id: "org_linked_team" });
    expect(session.customer).toMatchObject({ type: "team", email: null });
    expect(new URL(session.customer_portal_url).searchParams.has("email")).toBe(false);
    const grants = await harness.polar.customerPortal.benefitGrants.list({}, { accessToken: session.token });
    expect(grants.items.map((grant) => [grant.customer.type, grant.customer.email])).toEqual([
      ["team", null],
      ["team", null],
      ["team", null],
    ]);
  });

  it("gives a team without an e-mail address the one its checkout was paid with when no other customer has it: customer.updated after checkout.updated", async () => {
    const team = await harness.polar.customers.create({ type: "team", external_id: "org_adopting_team" });
    const checkout = await harness.polar.checkouts.create({
      products: [productIds["Pro yearly"] as string],
      external_customer_id: "org_adopting_team",
    });
    const mark = await harness.mark();
    await harness.polar.checkouts.clientConfirm(checkout.client_secret, {
      confirmation_token_id: "tok_visa",
      customer_email: "billing@adopting.example",
    });
    const types = await webhooksAfter(harness, mark);
    expect(types.slice(0, 4)).toEqual([
      "checkout.updated",
      "checkout.updated",
      "customer.updated",
      "subscription.created",
    ]);
    const updated = harness.receiver.received
      .slice(mark)
      .find((webhook) => webhook.payload.type === "customer.updated");
    expect(updated?.payload.data).toMatchObject({ id: team.id, type: "team", email: "billing@adopting.example" });
    expect(await harness.polar.customers.get(team.id)).toMatchObject({ email: "billing@adopting.example" });

    // A team that has an address keeps it, whatever the next checkout says.
    const next = await harness.polar.checkouts.create({
      products: [productIds.Team as string],
      external_customer_id: "org_adopting_team",
      seats: 2,
    });
    expect(next.customer_email).toBe("billing@adopting.example");
    await harness.polar.checkouts.clientConfirm(next.client_secret, {
      confirmation_token_id: "tok_visa",
      customer_email: "someone-else@adopting.example",
    });
    expect((await harness.polar.customers.get(team.id)).email).toBe("billing@adopting.example");
    expect((await harness.polar.checkouts.get(next.id)).customer_email).toBe("someone-else@adopting.example");
  });
});

describe("deleting a customer", () => {
  it("revokes its live subscriptions first (the usual revoke webhooks), then soft-deletes it with customer.deleted", async () => {
    const first = await subscribe("Pro monthly", "org_leaving", "owner@leaving.example");
    const second = await subscribe("Team", "org_leaving");
    const ended = await subscribe("Pro yearly", "org_leaving");
    await harness.polar.subscriptions.revoke(ended.id);
    const mark = await harness.mark();
    expect((await harness.request("DELETE", "/v1/customers/external/org_leaving")).status).toBe(204);
    const perSubscription = [
      "subscription.updated",
      "subscription.canceled",
      "subscription.revoked",
      "benefit_grant.revoked",
      "benefit_grant.revoked",
      "benefit_grant.revoked",
      "customer.state_changed",
    ];
    expect(await webhooksAfter(harness, mark)).toEqual([...perSubscription, ...perSubscription, "customer.deleted"]);
    const revokedIds = harness.receiver.received
      .slice(mark)
      .filter((webhook) => webhook.payload.type === "subscription.revoked")
      .map((webhook) => [webhook.payload.data.id, webhook.payload.data.status]);
    expect(revokedIds).toEqual([
      [first.id, "canceled"],
      [second.id, "canceled"],
    ]);
    const deleted = harness.receiver.received.at(-1)?.payload.data;
    expect(deleted).toMatchObject({ id: first.customer_id, deleted_at: expect.any(String) });
    expect((await harness.request("GET", "/v1/customers/external/org_leaving")).status).toBe(404);
    for (const subscription of [first, second]) {
      expect(await harness.polar.subscriptions.get(subscription.id)).toMatchObject({
        status: "canceled",
        ended_at: expect.any(String),
      });
    }
  });

  it("deletes by id too, revoking a trial, and deletes a customer without subscriptions with customer.deleted alone", async () => {
    const product = await harness.polar.products.create({
      name: "Trial to delete",
      recurring_interval: "month",
      trial_interval: "day",
      trial_interval_count: 7,
      prices: [{ amount_type: "fixed", price_amount: 700, price_currency: "usd" }],
    });
    productIds["Trial to delete"] = product.id;
    const trial = await subscribe("Trial to delete", "org_trial_leaving", "owner@trial-leaving.example");
    expect(trial.status).toBe("trialing");
    let mark = await harness.mark();
    expect((await harness.request("DELETE", `/v1/customers/${trial.customer_id}`)).status).toBe(204);
    expect(await webhooksAfter(harness, mark)).toEqual([
      "subscription.updated",
      "subscription.canceled",
      "subscription.revoked",
      "customer.state_changed",
      "customer.deleted",
    ]);

    const plain = await harness.polar.customers.create({ email: "plain@leaving.example" });
    mark = await harness.mark();
    await harness.polar.customers.delete(plain.id);
    expect(await webhooksAfter(harness, mark)).toEqual(["customer.deleted"]);
    expect((await harness.request("DELETE", `/v1/customers/${plain.id}`)).status).toBe(404);
  });
});

describe("payment methods", () => {
  it("saves the card a checkout was paid with as the customer's default, and the card control's card too", async () => {
    const subscription = await subscribe("Pro monthly", "org_cards", "owner@cards.example");
    const clock = (await harness.request("GET", "/sandbox/clock")).body as { now: string };
    const expiryYear = new Date(clock.now).getUTCFullYear() + 5;

    const methods = await harness.polar.customers.listPaymentMethods(subscription.customer_id);
    expect(methods).toEqual({
      items: [
        {
          id: expect.any(String),
          created_at: expect.any(String),
          modified_at: null,
          processor: "stripe",
          customer_id: subscription.customer_id,
          type: "card",
          method_metadata: { brand: "visa", last4: "4242", exp_month: 12, exp_year: expiryYear, wallet: null },
          is_default: true,
        },
      ],
      pagination: { total_count: 1, max_page: 1 },
    });
    const visa = methods.items[0]?.id;
    expect((await harness.polar.customers.get(subscription.customer_id)).default_payment_method_id).toBe(visa);

    const card = await harness.request("POST", `/sandbox/subscriptions/${subscription.id}/card`, {
      token: "tok_chargeDeclined",
    });
    expect(card.status).toBe(200);
    const afterControl = await harness.polar.customers.listPaymentMethodsExternal("org_cards");
    expect(afterControl.items).toMatchObject([
      { method_metadata: { last4: "0002" }, is_default: true },
      { method_metadata: { last4: "4242" }, is_default: false },
    ]);
    const declinedCard = afterControl.items[0]?.id;
    expect((await harness.polar.customers.getExternal("org_cards")).default_payment_method_id).toBe(declinedCard);

    // Paying with a saved card again saves nothing new; it becomes the default again.
    await harness.request("POST", `/sandbox/subscriptions/${subscription.id}/card`, { token: "tok_visa" });
    const again = await harness.polar.customers.listPaymentMethods(subscription.customer_id);
    expect(again.items.map((method) => [method.id, method.is_default])).toEqual([
      [declinedCard, false],
      [visa, true],
    ]);

    expect(
      (
        await harness.polar.customers.listPaymentMethods(
          (await harness.polar.customers.create({ email: "nocard@cards.example" })).id,
        )
      ).items,
    ).toEqual([]);
    expect((await harness.request("GET", "/v1/customers/external/org_nobody/payment-methods")).status).toBe(404);
    expect(
      (await harness.request("GET", "/v1/customers/00000000-0000-4000-8000-000000000000/payment-methods")).status,
    ).toBe(404);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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

async function subscribe(productName: string, organizationId: string) {
  const checkout = await purchase(harness, productIds[productName] as string, organizationId);
  return harness.polar.subscriptions.get(checkout.subscription_id as string);
}

describe("benefit updates", () => {
  it("sends benefit_grant.updated for each active grant when the metadata or properties change, then customer.state_changed per customer", async () => {
    const benefits = await harness.polar.benefits.list({ limit: 100 });
    const unlimited = benefits.items.find((benefit) => benefit.description === "Unlimited members and teams");
    if (!unlimited) throw new Error("the seeded benefit is missing");
    const monthly = await subscribe("Pro monthly", "org_benefit_monthly");
    const team = await subscribe("Team yearly", "org_benefit_team");
    const gone = await subscribe("Pro yearly", "org_benefit_gone");
    await harness.polar.subscriptions.revoke(gone.id);
    // A one-time purchase keeps its grant when its customer is deleted; a deleted customer's grant is not updated.
    const lifetime = await harness.polar.products.create({
      name: "Lifetime seats",
      prices: [{ amount_type: "fixed", price_amount: 9900, price_currency: "usd" }],
    });
    await harness.polar.products.updateBenefits(lifetime.id, { benefits: [unlimited.id] });
    const lifetimeCheckout = await harness.polar.checkouts.create({
      products: [lifetime.id],
      external_customer_id: "org_benefit_deleted",
      customer_email: "deleted@benefit.example",
    });
    await harness.request("POST", `/sandbox/checkouts/${lifetimeCheckout.id}/complete`, {});
    expect((await harness.polar.customers.getStateExternal("org_benefit_deleted")).granted_benefits).toHaveLength(1);
    await harness.polar.customers.deleteExternal("org_benefit_deleted");

    let mark = await harness.mark();
    const limited = await harness.polar.benefits.update(unlimited.id, {
      type: "custom",
      metadata: { limit_members: 25, limit_teams: "unlimited" },
    });
    expect(limited.metadata).toEqual({ limit_members: 25, limit_teams: "unlimited" });
    expect(await webhooksAfter(harness, mark)).toEqual([
      "benefit.updated",
      "benefit_grant.updated",
      "benefit_grant.updated",
      "customer.state_changed",
      "customer.state_changed",
    ]);
    const received = harness.receiver.received.slice(mark).map((webhook) => webhook.payload);
    expect(received.slice(1, 3).map((payload) => [payload.data.customer_id, payload.data.benefit])).toEqual([
      [
        monthly.customer_id,
        expect.objectContaining({ id: unlimited.id, metadata: { limit_members: 25, limit_teams: "unlimited" } }),
      ],
      [
        team.customer_id,
        expect.objectContaining({ id: unlimited.id, metadata: { limit_members: 25, limit_teams: "unlimited" } }),
      ],
    ]);
    expect(received.slice(3).map((payload) => payload.data.id)).toEqual([monthly.customer_id, team.customer_id]);
    const state = await harness.polar.customers.getStateExternal("org_benefit_team");
    expect(state.granted_benefits.find((grant) => grant.benefit_id === unlimited.id)?.benefit_metadata).toEqual({
      limit_members: 25,
      limit_teams: "unlimited",
    });

    mark = await harness.mark();
    await harness.polar.benefits.update(unlimited.id, { type: "custom", properties: { note: "Up to 25 members" } });
    expect(await webhooksAfter(harness, mark)).toEqual([
      "benefit.updated",
      "benefit_grant.updated",
      "benefit_grant.updated",
      "customer.state_changed",
      "customer.state_changed",
    ]);

    mark = await harness.mark();
    await harness.polar.benefits.update(unlimited.id, { type: "custom", description: "Members and teams" });
    await harness.polar.benefits.update(unlimited.id, {
      type: "custom",
      metadata: { limit_members: 25, limit_teams: "unlimited" },
    });
    expect(await webhooksAfter(harness, mark)).toEqual(["benefit.updated", "benefit.updated"]);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SubscriptionRecord } from "./records";
import { API_REQUEST_EVENT } from "./seed";
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

/** Buys a product for an app organization through a checkout, paid by the sandbox control. */
const buy = (productName: string, organizationId: string) =>
  purchase(harness, productIds[productName] as string, organizationId);

async function subscribe(productName: string, organizationId: string) {
  const checkout = await buy(productName, organizationId);
  return harness.polar.subscriptions.get(checkout.subscription_id as string);
}

const advanceDays = (days: number) => harness.request("POST", "/sandbox/clock/advance", { days });

describe("subscription lifecycle", () => {
  it("renews at period end: cycled → updated → order.created → order.updated → order.paid → benefit_grant.cycled → state_changed", async () => {
    const subscription = await subscribe("Pro monthly", "org_renew");
    const mark = await harness.mark();
    await advanceDays(31);
    expect(await webhooksAfter(harness, mark, subscription.customer_id)).toEqual([
      "subscription.cycled",
      "subscription.updated",
      "order.created",
      "order.updated",
      "order.paid",
      "benefit_grant.cycled",
      "benefit_grant.cycled",
      "benefit_grant.cycled",
      "customer.state_changed",
    ]);
    const renewed = await harness.polar.subscriptions.get(subscription.id);
    expect(renewed.status).toBe("active");
    expect(renewed.current_period_start).toBe(subscription.current_period_end);
    const orders = await harness.polar.orders.list({ customer_id: subscription.customer_id, sorting: ["created_at"] });
    expect(orders.items.map((order) => [order.billing_reason, order.status, order.total_amount])).toEqual([
      ["subscription_create", "paid", 2000],
      ["subscription_cycle", "paid", 2000],
    ]);
    const cycledOrder = harness.receiver.received
      .slice(mark)
      .find((delivery) => delivery.payload.type === "order.created");
    expect(cycledOrder?.payload.data).toMatchObject({ status: "pending", billing_reason: "subscription_cycle" });
  });

  it("bills metered usage beyond the credited units on renewal, then resets the meter and credits again", async () => {
    const meter = (await harness.polar.meters.list({})).items[0];
    const product = await harness.polar.products.create({
      name: "Usage plan",
      recurring_interval: "month",
      prices: [
        { amount_type: "fixed", price_amount: 1000, price_currency: "usd" },
        { amount_type: "metered_unit", price_currency: "usd", meter_id: meter?.id as string, unit_amount: "2" },
      ],
    });
    const credits = await harness.polar.benefits.create({
      type: "meter_credit",
      description: "Three free requests",
      properties: { units: 3, rollover: false, meter_id: meter?.id as string },
    });
    await harness.polar.products.updateBenefits(product.id, { benefits: [credits.id] });
    productIds["Usage plan"] = product.id;
    const subscription = await subscribe("Usage plan", "org_usage");

    // The seeded meter sums `quantity`: four usage records of two requests each are eight requests.
    const ingest = await harness.polar.events.ingest({
      events: [
        ...Array.from({ length: 4 }, (_, index) => ({
          name: API_REQUEST_EVENT,
          external_customer_id: "org_usage",
          external_id: `request-${index}`,
          metadata: { path: "/v1/things", quantity: 2 },
        })),
        { name: "page_view", external_customer_id: "org_usage", metadata: { quantity: 100 } },
      ],
    });
    expect(ingest).toEqual({ inserted: 5, duplicates: 0 });
    expect(
      await harness.polar.events.ingest({
        events: [
          { name: API_REQUEST_EVENT, external_customer_id: "org_usage", external_id: "request-0", metadata: {} },
        ],
      }),
    ).toEqual({ inserted: 0, duplicates: 1 });

    const state = await harness.polar.customers.getStateExternal("org_usage");
    expectSchema("CustomerState", state);
    expect(state.active_meters).toMatchObject([
      { meter_id: meter?.id, consumed_units: 8, credited_units: 3, balance: -5 },
    ]);
    const withUsage = await harness.polar.subscriptions.get(subscription.id);
    expect(withUsage.meters).toMatchObject([{ consumed_units: 8, credited_units: 3, amount: 10 }]);

    await advanceDays(31);
    const orders = await harness.polar.orders.list({ customer_id: subscription.customer_id });
    expect(orders.items[0]).toMatchObject({ subtotal_amount: 1010, total_amount: 1010, status: "paid" });
    expect(orders.items[0]?.items.map((item) => [item.label, item.amount])).toEqual([
      ["Usage plan", 1000],
      ["API requests usage", 10],
    ]);
    const after = await harness.polar.customers.getStateExternal("org_usage");
    expect(after.active_meters).toMatchObject([{ consumed_units: 0, credited_units: 3, balance: 3 }]);

    const customerMeters = await harness.polar.customerMeters.list({ external_customer_id: "org_usage" });
    expect(customerMeters.items).toMatchObject([{ consumed_units: 0, credited_units: 3, balance: 3 }]);
    expect((await harness.polar.customerMeters.get(customerMeters.items[0]?.id as string)).meter_id).toBe(meter?.id);
  });

  it("cancels at period end (still active), then ends with updated → canceled → revoked at the period end", async () => {
    const subscription = await subscribe("Pro monthly", "org_cancel");
    let mark = await harness.mark();
    const canceled = await harness.polar.subscriptions.update(subscription.id, {
      cancel_at_period_end: true,
      customer_cancellation_reason: "too_expensive",
    });
    expect(canceled).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      ends_at: subscription.current_period_end,
      customer_cancellation_reason: "too_expensive",
    });
    expect(canceled.canceled_at).not.toBeNull();
    expect(await webhooksAfter(harness, mark)).toEqual([
      "subscription.updated",
      "subscription.canceled",
      "customer.state_changed",
    ]);

    const again = await harness.request("PATCH", `/v1/subscriptions/${subscription.id}`, {
      cancel_at_period_end: true,
    });
    expect(again.status).toBe(403);
    expect(again.body).toMatchObject({ error: "AlreadyCanceledSubscription" });

    mark = await harness.mark();
    await advanceDays(31);
    expect(await webhooksAfter(harness, mark, subscription.customer_id)).toEqual([
      "subscription.updated",
      "subscription.canceled",
      "subscription.revoked",
      "benefit_grant.revoked",
      "benefit_grant.revoked",
      "benefit_grant.revoked",
      "customer.state_changed",
    ]);
    const ended = await harness.polar.subscriptions.get(subscription.id);
    expect(ended).toMatchObject({ status: "canceled", ended_at: subscription.current_period_end });
    expect((await harness.polar.customers.getStateExternal("org_cancel")).active_subscriptions).toEqual([]);
  });

  it("uncancels: updated → uncanceled", async () => {
    const subscription = await subscribe("Pro yearly", "org_uncancel");
    await harness.polar.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    const mark = await harness.mark();
    const resumed = await harness.polar.subscriptions.update(subscription.id, { cancel_at_period_end: false });
    expect(resumed).toMatchObject({ cancel_at_period_end: false, canceled_at: null, ends_at: null, status: "active" });
    expect(await webhooksAfter(harness, mark)).toEqual(["subscription.updated", "subscription.uncanceled"]);
  });

  it("revokes immediately: updated → canceled → revoked → benefit_grant.revoked → state_changed", async () => {
    const subscription = await subscribe("Pro monthly", "org_revoke");
    const mark = await harness.mark();
    const revoked = await harness.polar.subscriptions.revoke(subscription.id);
    expect(revoked.status).toBe("canceled");
    expect(revoked.ended_at).toBe(revoked.canceled_at);
    expect(await webhooksAfter(harness, mark)).toEqual([
      "subscription.updated",
      "subscription.canceled",
      "subscription.revoked",
      "benefit_grant.revoked",
      "benefit_grant.revoked",
      "benefit_grant.revoked",
      "customer.state_changed",
    ]);
    const viaPatch = await subscribe("Free", "org_revoke_patch");
    expect((await harness.polar.subscriptions.update(viaPatch.id, { revoke: true })).status).toBe("canceled");
    expect((await harness.request("DELETE", `/v1/subscriptions/${subscription.id}`)).status).toBe(403);
  });

  it("turns past_due when the renewal card is declined, and unpaid (revoked) after the dunning period", async () => {
    const subscription = await subscribe("Pro monthly", "org_dunning");
    const card = await harness.request("POST", `/sandbox/subscriptions/${subscription.id}/card`, {
      token: "tok_chargeDeclined",
    });
    expect(card.status).toBe(200);
    let mark = await harness.mark();
    await advanceDays(31);
    expect(await webhooksAfter(harness, mark, subscription.customer_id)).toEqual([
      "subscription.cycled",
      "subscription.updated",
      "order.created",
      "subscription.updated",
      "subscription.past_due",
      "customer.state_changed",
    ]);
    const pastDue = await harness.polar.subscriptions.get(subscription.id);
    expect(pastDue.status).toBe("past_due");
    expect(pastDue.past_due_at).not.toBeNull();
    const pending = await harness.polar.orders.list({ customer_id: subscription.customer_id, status: "pending" });
    expect(pending.items[0]).toMatchObject({ status: "pending", paid: false, due_amount: 2000 });

    mark = await harness.mark();
    await advanceDays(8);
    expect(await webhooksAfter(harness, mark, subscription.customer_id)).toEqual([
      "subscription.updated",
      "subscription.revoked",
      "benefit_grant.revoked",
      "benefit_grant.revoked",
      "benefit_grant.revoked",
      "customer.state_changed",
    ]);
    expect((await harness.polar.subscriptions.get(subscription.id)).status).toBe("unpaid");
  });

  it("starts trials as trialing and activates them when the trial ends", async () => {
    const product = await harness.polar.products.create({
      name: "Trial plan",
      recurring_interval: "month",
      trial_interval: "day",
      trial_interval_count: 14,
      prices: [{ amount_type: "fixed", price_amount: 900, price_currency: "usd" }],
    });
    productIds["Trial plan"] = product.id;
    const subscription = await subscribe("Trial plan", "org_trial");
    expect(subscription.status).toBe("trialing");
    expect(subscription.trial_end).toBe(subscription.current_period_end);
    await advanceDays(15);
    const active = await harness.polar.subscriptions.get(subscription.id);
    expect(active.status).toBe("active");
    const orders = await harness.polar.orders.list({ customer_id: subscription.customer_id, sorting: ["created_at"] });
    expect(orders.items.map((order) => [order.billing_reason, order.total_amount])).toEqual([
      ["subscription_create", 0],
      ["subscription_cycle", 900],
    ]);
  });

  it("renews a subscription started on the 31st on each month's last day, counted from the start: Feb 28 → Mar 31 → Apr 30, no drift", async () => {
    const subscription = await subscribe("Pro monthly", "org_month_end");
    // Backdate it to Jan 31 of last year, one period in, so the sandbox has a year of renewals to catch up on.
    const year = harness.sandbox.context.clock.now().getUTCFullYear() - 1;
    const { store } = harness.sandbox.context;
    store.put("subscription", {
      ...(store.get("subscription", subscription.id) as SubscriptionRecord),
      started_at: `${year}-01-31T10:00:00.000Z`,
      current_period_start: `${year}-01-31T10:00:00.000Z`,
      current_period_end: `${year}-02-28T10:00:00.000Z`,
    });
    const mark = await harness.mark();
    await harness.request("POST", "/sandbox/clock/advance", { seconds: 1 });
    await harness.sandbox.context.webhooks.drain();
    const periods = harness.receiver.received
      .slice(mark)
      .filter(
        (webhook) => webhook.payload.type === "subscription.cycled" && webhook.payload.data.id === subscription.id,
      )
      .map((webhook) => [webhook.payload.data.current_period_start, webhook.payload.data.current_period_end]);
    expect(periods.slice(0, 4)).toEqual([
      [`${year}-02-28T10:00:00.000Z`, `${year}-03-31T10:00:00.000Z`],
      [`${year}-03-31T10:00:00.000Z`, `${year}-04-30T10:00:00.000Z`],
      [`${year}-04-30T10:00:00.000Z`, `${year}-05-31T10:00:00.000Z`],
      [`${year}-05-31T10:00:00.000Z`, `${year}-06-30T10:00:00.000Z`],
    ]);
    // Every later renewal too: each period starts where the last ended and ends on its month's last day at 10:00.
    expect(periods.length).toBeGreaterThanOrEqual(10);
    for (const [index, [start, end]] of periods.entries()) {
      if (index > 0) expect(start).toBe(periods[index - 1]?.[1]);
      const date = new Date(end as string);
      const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
      expect(end).toBe(`${date.toISOString().slice(0, 8)}${lastDay}T10:00:00.000Z`);
    }
    expect((await harness.polar.subscriptions.get(subscription.id)).status).toBe("active");
  });

  it("changes product with proration_behavior invoice (subscription_update order now) or prorate (on the next renewal)", async () => {
    const invoiced = await subscribe("Team", "org_upgrade");
    const mark = await harness.mark();
    const upgraded = await harness.polar.subscriptions.update(invoiced.id, {
      product_id: productIds["Pro monthly"] as string,
      proration_behavior: "invoice",
    });
    expect(upgraded).toMatchObject({ product_id: productIds["Pro monthly"], amount: 2000, seats: null });
    const types = await webhooksAfter(harness, mark);
    expect(types.slice(0, 4)).toEqual(["subscription.updated", "order.created", "order.updated", "order.paid"]);
    const invoicedOrders = await harness.polar.orders.list({ customer_id: invoiced.customer_id });
    const updateOrders = invoicedOrders.items.filter((order) => order.billing_reason === "subscription_update");
    expect(updateOrders).toHaveLength(1);
    expect(updateOrders[0]?.items.every((item) => item.proration)).toBe(true);

    const prorated = await subscribe("Team", "org_prorate");
    await harness.polar.subscriptions.update(prorated.id, {
      product_id: productIds["Pro monthly"] as string,
      proration_behavior: "prorate",
    });
    const proratedOrders = await harness.polar.orders.list({ customer_id: prorated.customer_id });
    expect(proratedOrders.items.map((order) => order.billing_reason)).toEqual(["subscription_create"]);
  });

  it("a downgrade billed with invoice charges nothing now: its credit comes off the next invoice", async () => {
    const subscription = await subscribe("Pro monthly", "org_downgrade");
    const downgraded = await harness.polar.subscriptions.update(subscription.id, {
      product_id: productIds.Team as string,
      proration_behavior: "invoice",
    });
    expect(downgraded).toMatchObject({ amount: 1500, seats: 1 });
    const orders = await harness.polar.orders.list({ customer_id: subscription.customer_id });
    expect(orders.items.map((order) => order.billing_reason)).toEqual(["subscription_create"]);
    await advanceDays(31);
    const renewal = (await harness.polar.orders.list({ customer_id: subscription.customer_id })).items.find(
      (order) => order.billing_reason === "subscription_cycle",
    );
    // Team's 1500 less about 500 for the unused rest of the first month: the credit of 2000 less 1500.
    expect(renewal?.total_amount).toBeGreaterThanOrEqual(999);
    expect(renewal?.total_amount).toBeLessThanOrEqual(1001);
  });

  it("a change of billing interval invoices even with prorate, and starts a new cycle at the change", async () => {
    const subscription = await subscribe("Pro monthly", "org_interval");
    const yearly = await harness.polar.subscriptions.update(subscription.id, {
      product_id: productIds["Pro yearly"] as string,
      proration_behavior: "prorate",
    });
    const start = new Date(yearly.current_period_start);
    expect(start.getTime()).toBeGreaterThan(new Date(subscription.current_period_start).getTime());
    expect(new Date(yearly.current_period_end).getUTCFullYear()).toBe(start.getUTCFullYear() + 1);
    const update = (await harness.polar.orders.list({ customer_id: subscription.customer_id })).items.find(
      (order) => order.billing_reason === "subscription_update",
    );
    // The year in full, less the unused month (almost all of its 2000).
    expect(update?.total_amount).toBeGreaterThanOrEqual(18_000);
    expect(update?.total_amount).toBeLessThanOrEqual(18_001);
  });
});

describe("seats", () => {
  /** A Team subscription bought with `seats` seats. */
  async function team(organizationId: string, seats: number) {
    const checkout = await harness.polar.checkouts.create({
      products: [productIds.Team as string],
      external_customer_id: organizationId,
      customer_email: `${organizationId}@example.test`,
      seats,
    });
    const completed = await harness.request("POST", `/sandbox/checkouts/${checkout.id}/complete`, {});
    return harness.polar.subscriptions.get((completed.body as { subscription_id: string }).subscription_id);
  }

  it("adds seats with proration_behavior invoice: amount recomputed, the prorated difference billed now in a subscription_update order", async () => {
    const subscription = await team("org_seats_invoice", 3);
    expect(subscription).toMatchObject({ seats: 3, amount: 4500 });
    const mark = await harness.mark();
    const updated = await harness.polar.subscriptions.update(subscription.id, {
      seats: 5,
      proration_behavior: "invoice",
    });
    expect(updated).toMatchObject({ seats: 5, amount: 7500, status: "active" });
    expect(await webhooksAfter(harness, mark)).toEqual([
      "subscription.updated",
      "order.created",
      "order.updated",
      "order.paid",
      "customer.state_changed",
    ]);
    const state = harness.receiver.received.at(-1)?.payload.data as { active_subscriptions: { amount: number }[] };
    expect(state.active_subscriptions.map((item) => item.amount)).toEqual([7500]);
    const orders = await harness.polar.orders.list({ customer_id: subscription.customer_id, sorting: ["created_at"] });
    expect(orders.items.map((order) => [order.billing_reason, order.status, order.total_amount, order.seats])).toEqual([
      ["subscription_create", "paid", 4500, 3],
      ["subscription_update", "paid", 3000, 5],
    ]);
    expect(orders.items[1]?.items.map((item) => [item.label, item.amount, item.proration])).toEqual([
      ["Remaining time on Team (5 seats)", 7500, true],
      ["Unused time on Team (3 seats)", -4500, true],
    ]);
  });

  it("removes seats with proration_behavior prorate: no order now, the difference on the next renewal", async () => {
    const subscription = await team("org_seats_prorate", 4);
    let mark = await harness.mark();
    const updated = await harness.polar.subscriptions.update(subscription.id, {
      seats: 2,
      proration_behavior: "prorate",
    });
    expect(updated).toMatchObject({ seats: 2, amount: 3000 });
    expect(await webhooksAfter(harness, mark)).toEqual(["subscription.updated", "customer.state_changed"]);
    expect((await harness.polar.orders.list({ customer_id: subscription.customer_id })).items).toHaveLength(1);

    mark = await harness.mark();
    await advanceDays(31);
    expect((await webhooksAfter(harness, mark, subscription.customer_id)).slice(0, 5)).toEqual([
      "subscription.cycled",
      "subscription.updated",
      "order.created",
      "order.updated",
      "order.paid",
    ]);
    const renewal = (await harness.polar.orders.list({ customer_id: subscription.customer_id })).items[0];
    expect(renewal?.billing_reason).toBe("subscription_cycle");
    expect(renewal?.items.map((item) => [item.label, item.amount])).toEqual([
      ["Team", 3000],
      ["Remaining time on Team (2 seats)", 3000],
      ["Unused time on Team (4 seats)", -6000],
    ]);
    expect(renewal?.total_amount).toBe(0);
  });

  it("keeps seats within the price's minimum and maximum, and refuses seats on a subscription without a seat-based price", async () => {
    const subscription = await team("org_seats_bounds", 1);
    const pro = await subscribe("Pro monthly", "org_seats_pro");
    const mark = await harness.mark();
    const tooMany = await harness.request("PATCH", `/v1/subscriptions/${subscription.id}`, { seats: 51 });
    expect(tooMany).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "seats"], msg: "Maximum 50 seats allowed.", type: "value_error" }] },
    });
    const none = await harness.request("PATCH", `/v1/subscriptions/${subscription.id}`, { seats: 0 });
    expect(none).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "seats"], msg: "Minimum 1 seats required.", type: "value_error" }] },
    });
    const notSeatBased = await harness.request("PATCH", `/v1/subscriptions/${pro.id}`, { seats: 2 });
    expect(notSeatBased).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["body", "seats"],
            msg: "This subscription does not support seat-based pricing.",
            type: "value_error",
          },
        ],
      },
    });
    expect((await harness.polar.subscriptions.get(subscription.id)).seats).toBe(1);
    expect(await webhooksAfter(harness, mark)).toEqual([]);

    await harness.polar.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    const canceled = await harness.request("PATCH", `/v1/subscriptions/${subscription.id}`, { seats: 2 });
    expect(canceled).toMatchObject({ status: 403, body: { error: "AlreadyCanceledSubscription" } });
  });
});

describe("orders and refunds", () => {
  it("refunds partially then fully: refund.created (pending) → refund.updated (succeeded) → order.updated → order.refunded, and refuses more", async () => {
    const product = await harness.polar.products.create({
      name: "Workshop",
      prices: [{ amount_type: "fixed", price_amount: 10_000, price_currency: "usd" }],
    });
    const credits = await harness.polar.benefits.create({
      type: "custom",
      description: "Workshop access",
      properties: { note: null },
    });
    await harness.polar.products.updateBenefits(product.id, { benefits: [credits.id] });
    productIds.Workshop = product.id;
    const checkout = await buy("Workshop", "org_refund");
    const order = (await harness.polar.orders.list({ checkout_id: checkout.id })).items[0];
    expectSchema("Order", await harness.polar.orders.get(order?.id as string));

    let mark = await harness.mark();
    const partial = await harness.polar.refunds.create({
      order_id: order?.id as string,
      reason: "customer_request",
      amount: 4000,
      comment: "Half day only",
    });
    expectSchema("Refund", partial);
    expect(partial).toMatchObject({ status: "succeeded", amount: 4000, reason: "customer_request" });
    expect(await webhooksAfter(harness, mark)).toEqual([
      "refund.created",
      "refund.updated",
      "order.updated",
      "order.refunded",
    ]);
    const refundEvents = harness.receiver.received
      .slice(mark)
      .filter((webhook) => webhook.payload.type.startsWith("refund."));
    expect(refundEvents.map((webhook) => [webhook.payload.data.id, webhook.payload.data.status])).toEqual([
      [partial.id, "pending"],
      [partial.id, "succeeded"],
    ]);
    expect(await harness.polar.orders.get(order?.id as string)).toMatchObject({
      status: "partially_refunded",
      refunded_amount: 4000,
      refundable_amount: 6000,
    });

    const tooMuch = await harness.request("POST", "/v1/refunds/", {
      order_id: order?.id,
      reason: "other",
      amount: 7000,
    });
    expect(tooMuch.status).toBe(422);

    mark = await harness.mark();
    await harness.polar.refunds.create({
      order_id: order?.id as string,
      reason: "satisfaction_guarantee",
      amount: 6000,
      revoke_benefits: true,
    });
    expect(await webhooksAfter(harness, mark)).toEqual([
      "refund.created",
      "refund.updated",
      "order.updated",
      "order.refunded",
      "benefit_grant.revoked",
      "customer.state_changed",
    ]);
    expect((await harness.polar.orders.get(order?.id as string)).status).toBe("refunded");
    const again = await harness.request("POST", "/v1/refunds/", {
      order_id: order?.id,
      reason: "duplicate",
      amount: 1,
    });
    expect(again).toEqual({
      status: 403,
      body: { error: "RefundedAlready", detail: "Order is already fully refunded." },
    });
    expect((await harness.polar.refunds.list({ order_id: order?.id as string })).items).toHaveLength(2);
  });

  it("refuses revoke_benefits on a subscription order", async () => {
    const subscription = await subscribe("Pro monthly", "org_refund_sub");
    const order = (await harness.polar.orders.list({ customer_id: subscription.customer_id })).items[0];
    const refused = await harness.request("POST", "/v1/refunds/", {
      order_id: order?.id,
      reason: "fraudulent",
      amount: 100,
      revoke_benefits: true,
    });
    expect(refused.status).toBe(422);
  });
});

describe("meters and events", () => {
  it("filters with and/or clauses and aggregates count, sum, max, min and avg", async () => {
    const make = (name: string, aggregation: object) =>
      harness.polar.meters.create({
        name,
        filter: {
          conjunction: "and",
          clauses: [
            { property: "name", operator: "eq", value: "llm_call" },
            {
              conjunction: "or",
              clauses: [
                { property: "model", operator: "like", value: "gpt" },
                { property: "tokens", operator: "gte", value: 100 },
              ],
            },
          ],
        },
        aggregation: aggregation as never,
      });
    const meters = await Promise.all([
      make("LLM calls", { func: "count" }),
      make("LLM tokens", { func: "sum", property: "tokens" }),
      make("LLM max", { func: "max", property: "tokens" }),
      make("LLM min", { func: "min", property: "tokens" }),
      make("LLM avg", { func: "avg", property: "tokens" }),
    ]);
    for (const meter of meters) expectSchema("Meter", meter);
    await harness.polar.customers.create({ email: "llm@example.test", external_id: "org_llm" });
    await harness.polar.events.ingest({
      events: [
        { name: "llm_call", external_customer_id: "org_llm", metadata: { model: "gpt-5", tokens: 10 } },
        { name: "llm_call", external_customer_id: "org_llm", metadata: { model: "claude", tokens: 300 } },
        { name: "llm_call", external_customer_id: "org_llm", metadata: { model: "claude", tokens: 20 } },
        { name: "other", external_customer_id: "org_llm", metadata: { model: "gpt-5", tokens: 1000 } },
      ],
    });
    const now = await harness.request("GET", "/sandbox/clock");
    const end = new Date(new Date((now.body as { now: string }).now).getTime() + 60_000).toISOString();
    const start = new Date(new Date(end).getTime() - 2 * 86_400_000).toISOString();
    const totals = await Promise.all(
      meters.map((meter) =>
        harness.polar.meters.quantities(meter.id, { start_timestamp: start, end_timestamp: end, interval: "day" }),
      ),
    );
    for (const total of totals) expectSchema("MeterQuantities", total);
    expect(totals.map((total) => total.total)).toEqual([2, 310, 300, 10, 155]);
    expect(totals[0]?.quantities).toHaveLength(2);
    const archived = await harness.polar.meters.update(meters[0]?.id as string, { is_archived: true });
    expect(archived.archived_at).not.toBeNull();
    const events = await harness.polar.events.list({ external_customer_id: "org_llm" });
    expect(events.items).toHaveLength(4);
  });
});

describe("customer sessions and the customer portal", () => {
  it("creates a session by external id and serves the portal's subscriptions, orders, grants and meters to its token", async () => {
    const subscription = await subscribe("Pro monthly", "org_portal");
    const session = await harness.polar.customerSessions.create({
      external_customer_id: "org_portal",
      return_url: "https://app.example/billing",
    });
    expectSchema("CustomerSession", session);
    expect(session.token).toMatch(/^polar_cst_/);
    expect(session.customer_portal_url).toContain(`${harness.url}/portal?customer_session_token=`);
    const asCustomer = { accessToken: session.token };

    const subscriptions = await harness.polar.customerPortal.subscriptions.list({}, asCustomer);
    expect(subscriptions.items.map((item) => item.id)).toEqual([subscription.id]);
    const orders = await harness.polar.customerPortal.orders.list({}, asCustomer);
    expect(orders.items).toHaveLength(1);
    const grants = await harness.polar.customerPortal.benefitGrants.list({}, asCustomer);
    expect(grants.items.map((grant) => grant.benefit.type).sort()).toEqual(["custom", "custom", "meter_credit"]);
    const meters = await harness.polar.customerPortal.customerMeters.list({}, asCustomer);
    expect(meters.items).toMatchObject([{ credited_units: 10_000, consumed_units: 0, balance: 10_000 }]);

    const canceled = await harness.polar.customerPortal.subscriptions.cancel(subscription.id, asCustomer);
    expect(canceled.cancel_at_period_end).toBe(true);
    const resumed = await harness.polar.customerPortal.subscriptions.update(
      subscription.id,
      { cancel_at_period_end: false },
      asCustomer,
    );
    expect(resumed.cancel_at_period_end).toBe(false);

    const other = await subscribe("Pro monthly", "org_portal_other");
    expect(
      (await harness.request("GET", `/v1/customer-portal/subscriptions/${other.id}`, undefined, session.token)).status,
    ).toBe(404);
    expect((await harness.request("GET", "/v1/customer-portal/subscriptions/", undefined, "anything")).status).toBe(
      401,
    );
  });
});

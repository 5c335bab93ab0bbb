import { describe, expect, it } from "vitest";
import type { BillingSubscription, Plan } from "../../../../common/billing.schemas";
import {
  billingReasonLabel,
  checkoutReturn,
  formatMoney,
  formatPrice,
  formatSeatTotal,
  formatUnitAmount,
  hasChangeableSubscription,
  meterPercent,
  monthlyEquivalent,
  orderStatus,
  paymentMethodLabel,
  planActionLabel,
  priceFor,
  previewSentences,
  renewalSentence,
  subscriptionStatus,
  toMajorUnitsText,
  toMinorUnits,
} from "./billing-format";

// Midday UTC, so the calendar date is the same in every time zone the tests may run in.
const NOW = new Date("2026-03-10T12:00:00Z");

function subscription(overrides: Partial<BillingSubscription> = {}): BillingSubscription {
  return {
    id: "sub_1",
    status: "active",
    productId: "prod_pro_month",
    recurringInterval: "month",
    amount: 2000,
    currency: "usd",
    currentPeriodStart: "2026-03-03T12:00:00Z",
    currentPeriodEnd: "2026-04-03T12:00:00Z",
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endsAt: null,
    cancellationReason: null,
    seats: null,
    discountId: null,
    discount: null,
    ...overrides,
  };
}

describe("money", () => {
  it("formats minor units in the currency's own decimals", () => {
    expect(formatMoney(2000, "usd", "en-US")).toBe("$20.00");
    expect(formatMoney(123456, "eur", "en-US")).toBe("€1,234.56");
    expect(formatMoney(500, "jpy", "en-US")).toBe("¥500");
    expect(formatMoney(-1250, "usd", "en-US")).toBe("-$12.50");
  });

  it("says what a price is per period, and per seat for per-seat plans", () => {
    expect(formatPrice({ amount: 2000, currency: "usd", interval: "month", perSeat: false }, "en-US")).toBe(
      "$20.00 / month",
    );
    expect(formatPrice({ amount: 20_000, currency: "usd", interval: "year", perSeat: false }, "en-US")).toBe(
      "$200.00 / year",
    );
    expect(formatPrice({ amount: 1500, currency: "usd", interval: "month", perSeat: true }, "en-US")).toBe(
      "$15.00 per seat / month",
    );
    expect(formatSeatTotal({ amount: 1500, currency: "usd", interval: "month" }, 3, "en-US")).toBe("$45.00 / month");
  });

  it("shows metered unit prices below a cent", () => {
    expect(formatUnitAmount("0.1", "usd", "en-US")).toBe("$0.001");
    expect(formatUnitAmount("25", "usd", "en-US")).toBe("$0.25");
  });

  it("reads a typed amount into minor units and back", () => {
    expect(toMinorUnits("12.5", "usd")).toBe(1250);
    expect(toMinorUnits(" 12.50 ", "usd")).toBe(1250);
    expect(toMinorUnits("20", "usd")).toBe(2000);
    expect(toMinorUnits("500", "jpy")).toBe(500);
    expect(toMinorUnits("12.505", "usd")).toBeNaN();
    expect(toMinorUnits("1,000", "usd")).toBeNaN();
    expect(toMinorUnits("", "usd")).toBeNaN();
    expect(toMajorUnitsText(1250, "usd")).toBe("12.50");
    expect(toMajorUnitsText(500, "jpy")).toBe("500");
  });
});

describe("subscription wording", () => {
  it("names each status in product words", () => {
    expect(subscriptionStatus(null, NOW)).toEqual({ label: "Free", tone: "neutral" });
    expect(subscriptionStatus(subscription({ status: "trialing" }), NOW).label).toBe("Trialing");
    expect(subscriptionStatus(subscription(), NOW)).toEqual({ label: "Active", tone: "success" });
    expect(subscriptionStatus(subscription({ status: "past_due" }), NOW)).toEqual({
      label: "Past due",
      tone: "danger",
    });
    expect(subscriptionStatus(subscription({ status: "unpaid" }), NOW).label).toBe("Unpaid");
    expect(subscriptionStatus(subscription({ status: "incomplete" }), NOW).label).toBe("Incomplete");
  });

  it("gives the date a pending cancellation takes effect, and when access ended", () => {
    expect(subscriptionStatus(subscription({ cancelAtPeriodEnd: true }), NOW)).toEqual({
      label: "Cancels on Apr 3, 2026",
      tone: "warning",
    });
    expect(
      subscriptionStatus(subscription({ cancelAtPeriodEnd: true, endsAt: "2026-03-20T12:00:00Z" }), NOW).label,
    ).toBe("Cancels on Mar 20, 2026");
    expect(
      subscriptionStatus(
        subscription({ status: "canceled", canceledAt: "2026-02-01T12:00:00Z", endsAt: "2026-03-01T12:00:00Z" }),
        NOW,
      ).label,
    ).toBe("Access ended Mar 1, 2026");
    expect(subscriptionStatus(subscription({ status: "canceled", endsAt: "2026-03-31T12:00:00Z" }), NOW).label).toBe(
      "Cancels on Mar 31, 2026",
    );
  });

  it("says what happens next and for how much", () => {
    expect(renewalSentence(subscription(), NOW)).toBe(`Renews on Apr 3, 2026 for ${formatMoney(2000, "usd")} / month.`);
    expect(renewalSentence(subscription({ status: "trialing" }), NOW)).toBe(
      `Your trial ends on Apr 3, 2026, then ${formatMoney(2000, "usd")} / month.`,
    );
    expect(renewalSentence(subscription({ cancelAtPeriodEnd: true }), NOW)).toBe(
      "Your plan stays active until Apr 3, 2026, then moves to Free.",
    );
    expect(renewalSentence(null, NOW)).toBe("Free forever, no card needed.");
    expect(renewalSentence(subscription({ status: "past_due" }), NOW)).toBe(
      `The last payment failed. We will retry it; update your payment method to keep ${formatMoney(2000, "usd")} / month.`,
    );
    expect(renewalSentence(subscription({ status: "past_due" }), NOW, false)).toBe(
      "The last payment failed. An owner or admin needs to update the payment method to keep this plan.",
    );
  });

  it("changes plans on trialing, active and past-due subscriptions only, as the server does", () => {
    expect(hasChangeableSubscription(subscription())).toBe(true);
    expect(hasChangeableSubscription(subscription({ status: "past_due" }))).toBe(true);
    expect(hasChangeableSubscription(subscription({ status: "unpaid" }))).toBe(false);
    expect(hasChangeableSubscription(subscription({ status: "canceled" }))).toBe(false);
    expect(hasChangeableSubscription(null)).toBe(false);
  });
});

describe("orders and cards", () => {
  it("words order statuses and billing reasons", () => {
    expect(orderStatus("paid").label).toBe("Paid");
    expect(orderStatus("refunded").label).toBe("Refunded");
    expect(orderStatus("partially_refunded").label).toBe("Partially refunded");
    expect(orderStatus("pending").label).toBe("Pending");
    expect(orderStatus("something_new").label).toBe("Something new");
    expect(billingReasonLabel("subscription_cycle")).toBe("Renewal");
    expect(billingReasonLabel("subscription_create")).toBe("New subscription");
    expect(billingReasonLabel("subscription_update")).toBe("Plan change");
    expect(billingReasonLabel("purchase")).toBe("One-time purchase");
  });

  it("names the card on file", () => {
    expect(paymentMethodLabel({ brand: "visa", last4: "4242" })).toBe("Visa ending in 4242");
    expect(paymentMethodLabel({ brand: "amex", last4: "0005" })).toBe("American Express ending in 0005");
  });
});

describe("previewSentences", () => {
  const preview = { currency: "usd", nextInvoice: { amount: 20_000, date: "2027-04-03T12:00:00Z" }, discount: null };

  it("says what is charged now, and the next invoice's amount and date", () => {
    expect(previewSentences({ ...preview, dueNow: 1250 })).toEqual({
      now: `You'll be charged ${formatMoney(1250, "usd")} now.`,
      next: `Your next invoice, on Apr 3, 2027, will be ${formatMoney(20_000, "usd")}.`,
      discount: null,
    });
    expect(previewSentences({ ...preview, dueNow: 0 }).now).toBe("Nothing is charged now.");
  });

  it("says whether the discount carries over to the next invoice", () => {
    const discount = (carriesOver: boolean) => ({ name: "LAUNCH20", carriesOver });
    expect(previewSentences({ ...preview, dueNow: 0, discount: discount(true) }).discount).toBe(
      'Your discount "LAUNCH20" still applies to it.',
    );
    expect(previewSentences({ ...preview, dueNow: 0, discount: discount(false) }).discount).toBe(
      'Your discount "LAUNCH20" does not apply to it.',
    );
  });
});

describe("plans", () => {
  const price = (productId: string, interval: "month" | "year", amount: number) => ({
    productId,
    interval,
    amount,
    currency: "usd",
    perSeat: false,
    minSeats: null,
    maxSeats: null,
    meteredUnitAmount: null,
  });
  const plans: Plan[] = [
    { key: "free", name: "Free", description: null, includes: [], limits: { members: 5, teams: 3 }, prices: [] },
    {
      key: "pro",
      name: "Pro",
      description: null,
      includes: [],
      limits: { members: null, teams: null },
      prices: [price("pm", "month", 2000), price("py", "year", 20_000)],
    },
    {
      key: "team",
      name: "Team",
      description: null,
      includes: [],
      limits: { members: null, teams: null },
      prices: [price("tm", "month", 1500)],
    },
  ];

  it("picks the chosen interval's price, or the plan's only one", () => {
    expect(priceFor(plans[1]!, "year")?.productId).toBe("py");
    expect(priceFor(plans[2]!, "year")?.productId).toBe("tm");
    expect(priceFor(plans[0]!, "month")).toBeUndefined();
  });

  it("labels the way to each plan by what it costs per month compared with now", () => {
    const onFree = { key: "free", monthly: 0 };
    expect(planActionLabel(onFree, plans[1]!, plans[1]!.prices[0]!, 2)).toBe("Upgrade to Pro");
    const onTeam = { key: "team", monthly: 4500 };
    expect(planActionLabel(onTeam, plans[1]!, plans[1]!.prices[0]!, 3)).toBe("Switch to Pro");
    expect(planActionLabel({ key: "pro", monthly: 2000 }, plans[1]!, plans[1]!.prices[1]!, 3)).toBe(
      "Switch to yearly billing",
    );
    const teamPerSeat = { ...plans[2]!.prices[0]!, perSeat: true };
    expect(planActionLabel({ key: "pro", monthly: 2000 }, plans[2]!, teamPerSeat, 2)).toBe("Upgrade to Team");
    expect(planActionLabel({ key: "pro", monthly: 2000 }, plans[2]!, teamPerSeat, 1)).toBe("Switch to Team");
  });

  it("compares monthly and yearly, fixed and per-seat prices per month", () => {
    expect(monthlyEquivalent({ amount: 24_000, interval: "year", perSeat: false, minSeats: null }, 1)).toBe(2000);
    expect(monthlyEquivalent({ amount: 1500, interval: "month", perSeat: true, minSeats: 3 }, 1)).toBe(4500);
  });
});

describe("checkoutReturn", () => {
  it("follows the checkout the provider sent back", () => {
    expect(checkoutReturn("ck_1", null)).toEqual({ kind: "follow", checkoutId: "ck_1" });
  });

  it("explains a return without payment from the last checkout, and asks the provider while it is open", () => {
    expect(checkoutReturn("returned", null)).toEqual({ kind: "not-completed" });
    expect(checkoutReturn("returned", { id: "ck_1", state: "open", productId: "p" })).toEqual({
      kind: "follow",
      checkoutId: "ck_1",
    });
    expect(checkoutReturn("returned", { id: "ck_1", state: "declined", productId: "p" })).toEqual({ kind: "declined" });
    expect(checkoutReturn("returned", { id: "ck_1", state: "expired", productId: "p" })).toEqual({ kind: "expired" });
    expect(checkoutReturn("returned", { id: "ck_2", state: "confirming", productId: "p" })).toEqual({
      kind: "follow",
      checkoutId: "ck_2",
    });
  });
});

describe("meterPercent", () => {
  it("is the share of the credited units used, capped at 100", () => {
    expect(meterPercent({ consumed: 2500, credited: 10_000 })).toBe(25);
    expect(meterPercent({ consumed: 12_000, credited: 10_000 })).toBe(100);
    expect(meterPercent({ consumed: 0, credited: 0 })).toBe(0);
    expect(meterPercent({ consumed: 3, credited: 0 })).toBe(100);
  });
});

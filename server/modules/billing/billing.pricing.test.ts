import { describe, expect, it } from "vitest";
import { FREE_PLAN_LIMITS, type PlanPrice } from "../../../common/billing.schemas";
import { ERROR_CODES } from "../../../common/error-codes";
import { DomainError } from "../../../common/domain-error";
import {
  assertSeats,
  freePlan,
  initialSeats,
  isOffered,
  periodAmount,
  planCatalogue,
  priceOf,
  prorationAmount,
  providerNow,
} from "./billing.pricing";
import type { models } from "./billing.provider";

type ProductInput = {
  id: string;
  name?: string;
  plan?: string;
  interval?: string | null;
  prices?: Array<Record<string, unknown>>;
  benefits?: Array<{ description: string; metadata: Record<string, unknown> }>;
  createdAt?: string;
};

function product(input: ProductInput): models.Product {
  return {
    id: input.id,
    name: input.name ?? input.id,
    description: `${input.id} description`,
    metadata: input.plan === undefined ? {} : { plan: input.plan },
    recurring_interval: input.interval === undefined ? "month" : input.interval,
    prices: input.prices ?? [],
    benefits: input.benefits ?? [],
    created_at: input.createdAt ?? "2026-01-01T00:00:00Z",
  } as unknown as models.Product;
}

const fixed = (amount: number) => ({
  amount_type: "fixed",
  price_amount: amount,
  price_currency: "usd",
  is_archived: false,
});
const seatBased = (perSeat: number, minimum?: number | null, maximum?: number | null) => ({
  amount_type: "seat_based",
  price_currency: "eur",
  is_archived: false,
  seat_tiers: { tiers: [{ price_per_seat: perSeat }], minimum_seats: minimum, maximum_seats: maximum },
});
const metered = { amount_type: "metered_unit", unit_amount: "0.5", price_currency: "usd", is_archived: false };

const price = (overrides: Partial<PlanPrice>): PlanPrice => ({
  productId: "p",
  interval: "month",
  amount: 1000,
  currency: "usd",
  perSeat: false,
  minSeats: null,
  maxSeats: null,
  meteredUnitAmount: null,
  ...overrides,
});

/** The 422 message assertSeats throws, or null when it accepts. */
function seatRefusal(seats: number, used: number, planPrice: PlanPrice | null): string | null {
  try {
    assertSeats(seats, used, planPrice);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(ERROR_CODES.VALIDATION_ERROR);
    return (error as DomainError).message;
  }
}

describe("priceOf", () => {
  it("reads a fixed price with the metered unit riding along", () => {
    expect(priceOf(product({ id: "pro", prices: [metered, fixed(2900)] }))).toEqual(
      price({ productId: "pro", amount: 2900, meteredUnitAmount: "0.5" }),
    );
  });

  it("reads a per-seat price with its bounds, the minimum defaulting to 1", () => {
    expect(priceOf(product({ id: "team", interval: "year", prices: [seatBased(800, 3, 50)] }))).toEqual(
      price({
        productId: "team",
        interval: "year",
        amount: 800,
        currency: "eur",
        perSeat: true,
        minSeats: 3,
        maxSeats: 50,
      }),
    );
    expect(priceOf(product({ id: "team", prices: [seatBased(800)] }))).toMatchObject({ minSeats: 1, maxSeats: null });
  });

  it("has no price for one-time or daily products, archived prices or a metered price alone", () => {
    expect(priceOf(product({ id: "once", interval: null, prices: [fixed(100)] }))).toBeNull();
    expect(priceOf(product({ id: "daily", interval: "day", prices: [fixed(100)] }))).toBeNull();
    expect(priceOf(product({ id: "old", prices: [{ ...fixed(100), is_archived: true }] }))).toBeNull();
    expect(priceOf(product({ id: "usage", prices: [metered] }))).toBeNull();
  });
});

describe("isOffered", () => {
  it("offers paid recurring plans, never the free plan or a product with no price", () => {
    expect(isOffered(product({ id: "pro", prices: [fixed(2900)] }))).toBe(true);
    expect(isOffered(product({ id: "free", plan: "free", prices: [fixed(0)] }))).toBe(false);
    expect(isOffered(product({ id: "once", interval: null, prices: [fixed(100)] }))).toBe(false);
  });
});

describe("planCatalogue", () => {
  it("puts the free plan first, then families by age with monthly before yearly", () => {
    const catalogue = planCatalogue([
      product({
        id: "biz-m",
        name: "Business monthly",
        plan: "business",
        prices: [fixed(9900)],
        createdAt: "2026-03-01T00:00:00Z",
      }),
      product({
        id: "pro-y",
        name: "Pro yearly",
        plan: "pro",
        interval: "year",
        prices: [fixed(29000)],
        createdAt: "2026-02-02T00:00:00Z",
      }),
      product({
        id: "pro-m",
        name: "Pro monthly",
        plan: "pro",
        prices: [fixed(2900)],
        createdAt: "2026-02-01T00:00:00Z",
        benefits: [
          { description: "Up to 50 members", metadata: { limit_members: 50 } },
          { description: "Audit log", metadata: { feature: "audit" } },
        ],
      }),
      product({ id: "free", name: "Starter", plan: "free", prices: [fixed(0)] }),
    ]);
    expect(catalogue.plans.map((plan) => [plan.key, plan.name, plan.prices.map((p) => p.productId)])).toEqual([
      ["free", "Starter", []],
      ["pro", "Pro", ["pro-m", "pro-y"]],
      ["business", "Business", ["biz-m"]],
    ]);
    expect(catalogue.plans[1]).toMatchObject({
      includes: ["Up to 50 members", "Audit log"],
      limits: { members: 50, teams: 5 },
    });
  });

  it("offers a default free plan when the merchant has no free product, and keys a plan without metadata by its id", () => {
    const catalogue = planCatalogue([product({ id: "solo", prices: [fixed(500)] })]);
    expect(catalogue.plans[0]).toEqual(freePlan(undefined));
    expect(catalogue.plans[0]).toMatchObject({ name: "Free", description: null, limits: FREE_PLAN_LIMITS });
    expect(catalogue.plans[1]).toMatchObject({ key: "solo", name: "solo" });
  });
});

describe("seats", () => {
  it("starts a checkout with the seats asked for, else the minimum or everyone already there", () => {
    expect(initialSeats(7, 3, price({ perSeat: true, minSeats: 5 }))).toBe(7);
    expect(initialSeats(undefined, 3, price({ perSeat: true, minSeats: 5 }))).toBe(5);
    expect(initialSeats(undefined, 8, price({ perSeat: true, minSeats: 5 }))).toBe(8);
    expect(initialSeats(undefined, 0, price({ perSeat: true, minSeats: null }))).toBe(1);
  });

  it("refuses seats outside the price's bounds or below the seats used", () => {
    const bounded = price({ perSeat: true, minSeats: 2, maxSeats: 10 });
    expect(seatRefusal(1, 0, bounded)).toBe("Choose at least 2 seats.");
    expect(seatRefusal(11, 0, bounded)).toBe("Choose at most 10 seats.");
    expect(seatRefusal(3, 4, bounded)).toBe(
      "Choose at least 4 seats: members and pending invitations use 4. Remove members or cancel invitations first.",
    );
    expect(seatRefusal(4, 4, bounded)).toBeNull();
    expect(seatRefusal(500, 1, null)).toBeNull();
  });
});

describe("proration", () => {
  const period = { periodStart: "2026-01-01T00:00:00Z", periodEnd: "2026-01-31T00:00:00Z" };
  const at = (iso: string) => new Date(iso).getTime();

  it("prices a period per seat (or the minimum) or per organization", () => {
    expect(periodAmount(price({ amount: 800, perSeat: true, minSeats: 3 }), 4)).toBe(3200);
    expect(periodAmount(price({ amount: 800, perSeat: true, minSeats: 3 }), null)).toBe(2400);
    expect(periodAmount(price({ amount: 800, perSeat: true, minSeats: null }), undefined)).toBe(800);
    expect(periodAmount(price({ amount: 2900 }), 12)).toBe(2900);
  });

  it("charges the new price for the rest of the period less the unused part of the current one", () => {
    const halfway = at("2026-01-16T00:00:00Z");
    expect(prorationAmount({ ...period, currentAmount: 1000, newAmount: 3000, now: halfway })).toBe(1000);
    expect(prorationAmount({ ...period, currentAmount: 3000, newAmount: 1000, now: halfway })).toBe(-1000);
  });

  it("rounds each part to the minor unit", () => {
    const third = at("2026-01-21T00:00:00Z");
    expect(prorationAmount({ ...period, currentAmount: 1000, newAmount: 2000, now: third })).toBe(667 - 333);
  });

  it("prorates the whole period before it starts and nothing once it ended or when it is empty", () => {
    expect(prorationAmount({ ...period, currentAmount: 1000, newAmount: 3000, now: at("2025-12-01T00:00:00Z") })).toBe(
      2000,
    );
    expect(prorationAmount({ ...period, currentAmount: 1000, newAmount: 3000, now: at("2026-02-15T00:00:00Z") })).toBe(
      0,
    );
    const empty = { periodStart: period.periodStart, periodEnd: null };
    expect(prorationAmount({ ...empty, currentAmount: 1000, newAmount: 3000, now: at("2025-12-01T00:00:00Z") })).toBe(
      0,
    );
  });

  it("reads the provider's clock from the subscription when it runs ahead of ours", () => {
    const now = at("2026-01-10T00:00:00Z");
    expect(providerNow({ modified_at: "2026-01-20T00:00:00Z", created_at: "2026-01-01T00:00:00Z" }, now)).toBe(
      at("2026-01-20T00:00:00Z"),
    );
    expect(providerNow({ modified_at: null, created_at: "2026-01-15T00:00:00Z" }, now)).toBe(
      at("2026-01-15T00:00:00Z"),
    );
    expect(providerNow({ modified_at: "2026-01-02T00:00:00Z", created_at: "2026-01-01T00:00:00Z" }, now)).toBe(now);
  });
});

import { createBenefit } from "./benefits.service";
import type { SandboxContext } from "./context";
import { createDiscount } from "./discounts.service";
import { createMeter } from "./meters.service";
import { createProduct, setProductBenefits } from "./products.service";

/**
 * The catalogue a fresh sandbox starts with. Runs once per data file (a setting marks it done). Every paid plan has
 * a monthly and a yearly product; product metadata `plan` names the plan family, benefit metadata the features.
 */
export const SEED_DISCOUNT_CODE = "LAUNCH20";
/** Usage events: one per usage record, its `metadata.quantity` the units it used (the meter sums them). */
export const API_REQUEST_EVENT = "api_request";

export function seedCatalogue(ctx: SandboxContext): void {
  if (ctx.store.getSetting("seeded_at")) return;
  ctx.store.transaction(() => {
    const meter = createMeter(ctx, {
      name: "API requests",
      filter: { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: API_REQUEST_EVENT }] },
      aggregation: { func: "sum", property: "quantity" },
      unit: "scalar",
      metadata: {},
    });
    const support = createBenefit(ctx, {
      type: "custom",
      description: "Priority support",
      properties: { note: "Answers within one business day." },
      metadata: { feature: "priority_support" },
    });
    const credits = createBenefit(ctx, {
      type: "meter_credit",
      description: "10,000 API requests a month",
      properties: { units: 10_000, rollover: false, meter_id: meter.id },
      metadata: { feature: "api_credits" },
    });
    const unlimited = createBenefit(ctx, {
      type: "custom",
      description: "Unlimited members and teams",
      properties: { note: null },
      metadata: { limit_members: "unlimited", limit_teams: "unlimited" },
    });
    const metered = {
      amount_type: "metered_unit" as const,
      price_currency: "usd",
      meter_id: meter.id,
      unit_amount: "0.1",
      cap_amount: null,
    };

    createProduct(ctx, {
      name: "Free",
      description: "For trying things out.",
      visibility: "public",
      recurring_interval: "month",
      prices: [{ amount_type: "free", price_currency: "usd" }],
      metadata: { plan: "free" },
      attached_custom_fields: [],
    });
    const proMonthly = createProduct(ctx, {
      name: "Pro monthly",
      description: "Everything in Free, more API requests and priority support.",
      visibility: "public",
      recurring_interval: "month",
      prices: [{ amount_type: "fixed", price_amount: 2000, price_currency: "usd" }, metered],
      metadata: { plan: "pro" },
      attached_custom_fields: [],
    });
    const proYearly = createProduct(ctx, {
      name: "Pro yearly",
      description: "Pro, billed once a year (two months free).",
      visibility: "public",
      recurring_interval: "year",
      prices: [{ amount_type: "fixed", price_amount: 20_000, price_currency: "usd" }, metered],
      metadata: { plan: "pro" },
      attached_custom_fields: [],
    });
    const perSeat = (pricePerSeat: number) => ({
      amount_type: "seat_based" as const,
      price_currency: "usd",
      seat_tiers: {
        tiers: [{ min_seats: 1, max_seats: 50, price_per_seat: pricePerSeat }],
        minimum_seats: 1,
        maximum_seats: 50,
      },
    });
    const team = createProduct(ctx, {
      name: "Team",
      description: "Pro for the whole team, priced per seat (up to 50 seats).",
      visibility: "public",
      recurring_interval: "month",
      prices: [perSeat(1500)],
      metadata: { plan: "team" },
      attached_custom_fields: [],
    });
    const teamYearly = createProduct(ctx, {
      name: "Team yearly",
      description: "Team, billed once a year per seat (two months free).",
      visibility: "public",
      recurring_interval: "year",
      prices: [perSeat(15_000)],
      metadata: { plan: "team" },
      attached_custom_fields: [],
    });
    for (const product of [proMonthly, proYearly, team, teamYearly])
      setProductBenefits(ctx, product, [support.id, credits.id, unlimited.id]);
    createDiscount(ctx, {
      name: "Launch offer: 20% off for 3 months",
      type: "percentage",
      basis_points: 2000,
      duration: "repeating",
      duration_in_months: 3,
      code: SEED_DISCOUNT_CODE,
      metadata: {},
    });
    ctx.store.setSetting("seeded_at", ctx.clock.iso());
  });
}

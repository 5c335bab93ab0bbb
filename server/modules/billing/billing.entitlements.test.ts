import { describe, expect, it } from "vitest";
import { FREE_PLAN_LIMITS } from "../../../common/billing.schemas";
import {
  entitlementsFrom,
  freePlanSummary,
  isChangeable,
  isCurrent,
  limitReachedMessage,
  limitsOf,
  planKeyOf,
  planNameOf,
} from "./billing.entitlements";
import type { models } from "./billing.provider";

const state = (metadata: Array<Record<string, unknown>>) =>
  ({ granted_benefits: metadata.map((benefit_metadata) => ({ benefit_metadata })) }) as unknown as models.CustomerState;
const subscription = (status: string, seats: number | null) => ({ status, seats }) as unknown as models.Subscription;

describe("subscription statuses", () => {
  it("keeps unfinished subscriptions as the plan and lets only live ones change", () => {
    const statuses = ["incomplete", "trialing", "active", "past_due", "unpaid", "canceled", "incomplete_expired"];
    expect(statuses.filter((status) => isCurrent({ status }))).toEqual([
      "incomplete",
      "trialing",
      "active",
      "past_due",
      "unpaid",
    ]);
    expect(statuses.filter((status) => isChangeable({ status }))).toEqual(["trialing", "active", "past_due"]);
  });
});

describe("plan names", () => {
  it("names monthly and yearly products after their plan", () => {
    expect(planNameOf({ name: "Pro monthly" })).toBe("Pro");
    expect(planNameOf({ name: "Pro  Yearly" })).toBe("Pro");
    expect(planNameOf({ name: "Monthly digest" })).toBe("Monthly digest");
  });

  it("keys a product by its plan metadata, else its id", () => {
    expect(planKeyOf({ id: "prod_1", metadata: { plan: "pro" } })).toBe("pro");
    expect(planKeyOf({ id: "prod_1", metadata: { plan: "" } })).toBe("prod_1");
    expect(planKeyOf({ id: "prod_1", metadata: { plan: 3 } })).toBe("prod_1");
    expect(freePlanSummary()).toEqual({ key: "free", name: "Free", productId: null });
  });
});

describe("limitsOf", () => {
  it("keeps the free plan's limits without a limit benefit", () => {
    expect(limitsOf([])).toEqual(FREE_PLAN_LIMITS);
    expect(limitsOf([{ feature: "audit" }])).toEqual(FREE_PLAN_LIMITS);
  });

  it("takes the highest grant, unlimited above all, and ignores values that are not counts", () => {
    expect(limitsOf([{ limit_members: 20 }, { limit_members: "50" }, { limit_teams: 2 }])).toEqual({
      members: 50,
      teams: 2,
    });
    expect(limitsOf([{ limit_members: 20 }, { limit_members: "unlimited" }])).toEqual({ members: null, teams: 5 });
    expect(limitsOf([{ limit_teams: -1 }, { limit_teams: 2.5 }, { limit_teams: "many" }])).toEqual(FREE_PLAN_LIMITS);
    expect(limitsOf([{ limit_teams: 0 }])).toEqual({ members: 10, teams: 0 });
  });
});

describe("entitlementsFrom", () => {
  it("is the free plan with no state", () => {
    expect(entitlementsFrom(undefined, undefined)).toEqual({ features: [], limits: FREE_PLAN_LIMITS });
  });

  it("lists each granted feature once, with the granted limits", () => {
    const granted = state([
      { feature: "audit", limit_members: 25 },
      { feature: "audit" },
      { feature: "sso" },
      { feature: 7 },
    ]);
    expect(entitlementsFrom(granted, undefined)).toEqual({
      features: ["audit", "sso"],
      limits: { members: 25, teams: 5 },
    });
  });

  it("bounds members by a live per-seat subscription's seats, not by one that ended or a flat one", () => {
    const granted = state([{ limit_members: "unlimited" }]);
    expect(entitlementsFrom(granted, subscription("active", 4)).limits.members).toBe(4);
    expect(entitlementsFrom(granted, subscription("unpaid", 4)).limits.members).toBeNull();
    expect(entitlementsFrom(granted, subscription("active", null)).limits.members).toBeNull();
  });
});

describe("limitReachedMessage", () => {
  it("says which limit was reached and what to do", () => {
    expect(limitReachedMessage("members", "Free", 10, false)).toBe(
      "The Free plan includes 10 seats and all are used by members and pending invitations. Upgrade the plan to invite more.",
    );
    expect(limitReachedMessage("members", "Team", 3, true)).toBe(
      "The Team plan includes 3 seats and all are used by members and pending invitations. Upgrade the plan or add seats to invite more.",
    );
    expect(limitReachedMessage("teams", "Pro", 5, false)).toBe(
      "The Pro plan includes 5 teams. Upgrade the plan to create more.",
    );
  });
});

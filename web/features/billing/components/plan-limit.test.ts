import { describe, expect, it } from "vitest";
import type { BillingSubscription } from "../../../../common/billing.schemas";
import { planLimitState, planLimitText, planUsageText } from "./plan-limit";

const overview = (seats: { used: number; limit: number | null }, teams: number | null, perSeat = true) => ({
  seats,
  entitlements: { features: [], limits: { members: seats.limit, teams } },
  subscription: perSeat ? ({ seats: seats.limit } as BillingSubscription) : null,
});

describe("plan limits", () => {
  it("counts seats from the overview and locks once every seat is used", () => {
    const open = planLimitState(overview({ used: 3, limit: 5 }, 3), "members")!;
    expect(open.isReached).toBe(false);
    expect(planUsageText(open)).toBe("Seats: 3 of 5");
    const full = planLimitState(overview({ used: 5, limit: 5 }, 3), "members")!;
    expect(full.isReached).toBe(true);
    expect(planLimitText(full)).toBe("Your plan includes 5 seats. Upgrade or add seats to invite more.");
  });

  it("offers no seats to add on a plan without seats (Free)", () => {
    const free = planLimitState(overview({ used: 10, limit: 10 }, 5, false), "members")!;
    expect(planLimitText(free)).toBe("Your plan includes 10 seats. Upgrade to invite more.");
  });

  it("never locks an unlimited plan", () => {
    const unlimited = planLimitState(overview({ used: 12, limit: null }, null), "members")!;
    expect(unlimited.isReached).toBe(false);
    expect(planUsageText(unlimited)).toBe("12 members, unlimited");
    expect(planUsageText(planLimitState(overview({ used: 1, limit: null }, null), "teams", 1)!)).toBe(
      "1 team, unlimited",
    );
  });

  it("counts teams from the page that lists them, and waits until it has", () => {
    expect(planLimitState(overview({ used: 1, limit: 5 }, 3), "teams")).toBeUndefined();
    const full = planLimitState(overview({ used: 1, limit: 5 }, 3), "teams", 3)!;
    expect(full).toMatchObject({ used: 3, limit: 3, isReached: true });
    expect(planUsageText(full)).toBe("Teams: 3 of 3");
    expect(planLimitText(full)).toBe("Your plan includes 3 teams. Upgrade to create more teams.");
  });
});

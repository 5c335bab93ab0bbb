import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { BillingOverview, Plan, PlanPrice } from "../../../../common/billing.schemas";
import { PlanComparison } from "./plan-comparison";

/** Any plan to any plan: from a flat plan a per-seat one asks for its seats, and Free is one click away. */

const price = (productId: string, amount: number, perSeat: boolean): PlanPrice => ({
  productId,
  interval: "month",
  amount,
  currency: "usd",
  perSeat,
  minSeats: perSeat ? 1 : null,
  maxSeats: perSeat ? 50 : null,
  meteredUnitAmount: null,
});
const limits = { members: null, teams: null };
const plans: Plan[] = [
  { key: "free", name: "Free", description: null, includes: [], limits: { members: 10, teams: 5 }, prices: [] },
  { key: "pro", name: "Pro", description: null, includes: [], limits, prices: [price("prod_pro", 2000, false)] },
  { key: "team", name: "Team", description: null, includes: [], limits, prices: [price("prod_team", 1500, true)] },
];
const overview: BillingOverview = {
  plan: { key: "pro", name: "Pro", productId: "prod_pro" },
  subscription: {
    id: "sub_1",
    status: "active",
    productId: "prod_pro",
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
  },
  entitlements: { features: [], limits },
  seats: { used: 3, limit: null },
  meters: [],
  orders: [],
  paymentMethod: null,
  canManage: true,
  syncedAt: null,
  lastCheckout: null,
};

describe("PlanComparison on a paid flat plan", () => {
  it("offers Team with a seat count (at least the seats in use) and Free, never 'cancel and wait'", async () => {
    const onChoose = vi.fn();
    const onChooseFree = vi.fn();
    render(
      <PlanComparison overview={overview} plans={plans} canManage onChoose={onChoose} onChooseFree={onChooseFree} />,
    );
    expect(screen.queryByText(/cancel (your|the current) subscription/i)).toBeNull();
    const user = userEvent.setup();
    const team = screen.getByRole("listitem", { name: "Team" });
    expect((within(team).getByLabelText("Seats") as HTMLInputElement).value).toBe("3");
    await user.click(within(team).getByRole("button", { name: "Upgrade to Team" }));
    expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ mode: "change", seats: 3 }));
    await user.click(
      within(screen.getByRole("listitem", { name: "Free" })).getByRole("button", { name: "Switch to Free" }),
    );
    expect(onChooseFree).toHaveBeenCalledOnce();
  });
});

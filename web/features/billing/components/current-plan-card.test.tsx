import { render, screen } from "@testing-library/react";
import { describe, it } from "vitest";
import type { BillingOverview } from "../../../../common/billing.schemas";
import { CurrentPlanCard } from "./current-plan-card";

/** The current plan says whether its discount still reduces the next invoice, never that a lapsed one applies. */

const overview = (discount: { name: string; appliesToNextInvoice: boolean }): BillingOverview => ({
  plan: { key: "pro", name: "Pro", productId: "prod_pro_y" },
  subscription: {
    id: "sub_1",
    status: "active",
    productId: "prod_pro_y",
    recurringInterval: "year",
    amount: 20_000,
    currency: "usd",
    currentPeriodStart: "2026-12-29T12:00:00Z",
    currentPeriodEnd: "2027-12-29T12:00:00Z",
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endsAt: null,
    cancellationReason: null,
    seats: null,
    discountId: "disc_1",
    discount,
  },
  entitlements: { features: [], limits: { members: null, teams: null } },
  seats: { used: 1, limit: null },
  meters: [],
  orders: [],
  paymentMethod: null,
  canManage: true,
  syncedAt: null,
  lastCheckout: null,
});

describe("CurrentPlanCard", () => {
  it("names a discount that still applies, and says when it has ended", () => {
    const { rerender } = render(
      <CurrentPlanCard overview={overview({ name: "LAUNCH20", appliesToNextInvoice: true })} />,
    );
    screen.getByText(/Your discount "LAUNCH20" applies to the next invoice\./);
    rerender(<CurrentPlanCard overview={overview({ name: "LAUNCH20", appliesToNextInvoice: false })} />);
    screen.getByText(/Your discount "LAUNCH20" has ended: the next invoice is at the full price\./);
  });
});

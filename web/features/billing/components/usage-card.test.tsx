import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { BillingMeter } from "../../../../common/billing.schemas";
import { billingOverviewQuery, USAGE_REFRESH_MS } from "../api/billing-queries";
import { UsageCard } from "./usage-card";

const meter: BillingMeter = {
  meterId: "m_1",
  name: "API requests",
  consumed: 12_345,
  credited: 10_000,
  remaining: -2_345,
  overageEstimate: 235,
};

describe("UsageCard", () => {
  it("shows the usage above what the plan includes with the overage estimate so far", () => {
    render(<UsageCard meters={[meter]} price={undefined} currency="usd" />);
    screen.getByText("12,345 of 10,000 used");
    screen.getByText("2,345 above what your plan includes: about $2.35 so far, added to your next invoice.");
  });

  it("says nothing of an overage while the usage is within the plan", () => {
    render(
      <UsageCard
        meters={[{ ...meter, consumed: 40, remaining: 9_960, overageEstimate: 0 }]}
        price={undefined}
        currency="usd"
      />,
    );
    screen.getByText("40 of 10,000 used");
    expect(screen.queryByText(/above what your plan includes/)).toBeNull();
  });
});

describe("the billing overview's refresh", () => {
  const interval = (meters: BillingMeter[] | undefined) => {
    const refetchInterval = billingOverviewQuery("org_1").refetchInterval as (query: unknown) => number | false;
    return refetchInterval({ state: { data: meters ? { meters } : undefined } });
  };

  it("reads a plan with metered usage again every few seconds, so recorded usage shows", () => {
    expect(interval([meter])).toBe(USAGE_REFRESH_MS);
    expect(USAGE_REFRESH_MS).toBeLessThanOrEqual(5_000);
  });

  it("leaves a plan without meters alone", () => {
    expect(interval([])).toBe(false);
    expect(interval(undefined)).toBe(false);
  });
});

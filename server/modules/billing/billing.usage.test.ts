import { describe, expect, it } from "vitest";
import type { models } from "./billing.provider";
import { countedBy, meterEventNames, metersCounting, overageEstimate } from "./billing.usage";

const product = (prices: unknown[]) => ({ prices }) as unknown as Pick<models.Product, "prices">;
const metered = { amount_type: "metered_unit", meter_id: "meter_1", unit_amount: "0.1", cap_amount: null };

describe("metersCounting and countedBy", () => {
  const meters = new Map([
    ["meter_1", ["api_request", "export"]],
    ["meter_2", ["export"]],
  ]);

  it("finds every meter that counts an event", () => {
    expect(metersCounting(meters, "export")).toEqual(["meter_1", "meter_2"]);
    expect(metersCounting(meters, "api_request")).toEqual(["meter_1"]);
    expect(metersCounting(meters, "other")).toEqual([]);
  });

  it("adds up the quantities of the events a meter counts", () => {
    const quantities = new Map([
      ["api_request", 12_000],
      ["export", 345],
      ["other", 9],
    ]);
    expect(countedBy(["api_request", "export"], quantities)).toBe(12_345);
    expect(countedBy([], quantities)).toBe(0);
  });
});

describe("overageEstimate", () => {
  it("is the units over the included quantity times the unit price, in whole cents", () => {
    expect(overageEstimate(product([metered]), "meter_1", 2345)).toBe(235);
    expect(overageEstimate(product([metered]), "meter_1", 0)).toBe(0);
  });

  it("stops at the price's cap", () => {
    expect(overageEstimate(product([{ ...metered, cap_amount: 100 }]), "meter_1", 5000)).toBe(100);
  });

  it("is null when the plan has no price for the meter", () => {
    expect(overageEstimate(product([{ ...metered, meter_id: "meter_2" }]), "meter_1", 10)).toBeNull();
    expect(overageEstimate(product([{ amount_type: "fixed", price_amount: 2000 }]), "meter_1", 10)).toBeNull();
  });
});

describe("meterEventNames", () => {
  it("reads the event names each meter's filter counts, nested clauses included", () => {
    const subscription = {
      meters: [
        {
          meter_id: "meter_1",
          meter: {
            filter: {
              conjunction: "or",
              clauses: [
                { property: "name", operator: "eq", value: "api_request" },
                { conjunction: "and", clauses: [{ property: "name", operator: "eq", value: "export" }] },
              ],
            },
          },
        },
      ],
    } as unknown as Pick<models.Subscription, "meters">;
    expect(meterEventNames(subscription)).toEqual(new Map([["meter_1", ["api_request", "export"]]]));
  });
});

import { describe, expect, it } from "vitest";
import { addPeriods, discountCovers, quoteChange, type DiscountTerms } from "./billing.pricing";

/** What a change is charged now and on the next invoice (`quoteChange`), by the provider's documented rules. */

const at = (iso: string) => new Date(iso).getTime();
const monthly = {
  amount: 2000,
  interval: "month",
  label: "Pro monthly",
  periodStart: "2026-01-01T00:00:00Z",
  periodEnd: "2026-02-01T00:00:00Z",
  trialing: false,
  firstBilled: new Date("2026-01-01T00:00:00Z"),
};
const halfway = at("2026-01-16T12:00:00Z");
const launch20: DiscountTerms = {
  name: "LAUNCH20",
  type: "percentage",
  basisPoints: 2000,
  amount: 0,
  duration: "repeating",
  durationInMonths: 3,
};

describe("quoteChange", () => {
  it("monthly → yearly: charged now whatever the setting, the year less the unused half month; a new cycle", () => {
    const quote = quoteChange({
      current: monthly,
      target: { amount: 20_000, interval: "year", label: "Pro yearly" },
      behavior: "prorate",
      discount: null,
      now: halfway,
    });
    expect(quote).toEqual({
      dueNow: 19_000,
      nextInvoice: { amount: 20_000, date: "2027-01-16T12:00:00.000Z" },
      discount: null,
      lines: [
        { label: "Pro yearly", amount: 20_000, on: "now" },
        { label: "Unused time on Pro monthly", amount: -1000, on: "now" },
        { label: "Pro yearly", amount: 20_000, on: "nextInvoice" },
      ],
    });
  });

  it("a repeating discount covers the new cycle started within its months, and not the next year", () => {
    const quote = quoteChange({
      current: monthly,
      target: { amount: 20_000, interval: "year", label: "Pro yearly" },
      behavior: "invoice",
      discount: launch20,
      now: halfway,
    });
    expect(quote.dueNow).toBe(15_200);
    expect(quote.nextInvoice.amount).toBe(20_000);
    expect(quote.discount).toEqual({ name: "LAUNCH20", carriesOver: false });
  });

  it("a downgrade with invoice charges nothing now: its credit comes off the next invoice", () => {
    const quote = quoteChange({
      current: monthly,
      target: { amount: 1500, interval: "month", label: "Team (1 seat)" },
      behavior: "invoice",
      discount: launch20,
      now: halfway,
    });
    expect(quote.dueNow).toBe(0);
    // 1500 − 250, then 20 % off: the discount still covers the cycle starting Feb 1.
    expect(quote.nextInvoice).toEqual({ amount: 1000, date: "2026-02-01T00:00:00.000Z" });
    expect(quote.discount).toEqual({ name: "LAUNCH20", carriesOver: true });
  });

  it("an upgrade with prorate adds the difference to the next invoice; with invoice it is charged now", () => {
    const change = {
      current: { ...monthly, amount: 1500, label: "Team (1 seat)" },
      target: { amount: 2000, interval: "month" as const, label: "Pro monthly" },
      discount: null,
      now: halfway,
    };
    expect(quoteChange({ ...change, behavior: "prorate" })).toMatchObject({ dueNow: 0, nextInvoice: { amount: 2250 } });
    expect(quoteChange({ ...change, behavior: "invoice" })).toMatchObject({
      dueNow: 250,
      nextInvoice: { amount: 2000 },
    });
  });

  it("prorates nothing during a trial", () => {
    const quote = quoteChange({
      current: { ...monthly, trialing: true },
      target: { amount: 20_000, interval: "year", label: "Pro yearly" },
      behavior: "invoice",
      discount: null,
      now: halfway,
    });
    expect(quote).toMatchObject({ dueNow: 0, nextInvoice: { amount: 20_000, date: "2026-02-01T00:00:00.000Z" } });
  });
});

describe("discountCovers and addPeriods", () => {
  const first = new Date("2026-01-31T10:00:00Z");

  it("once covers the first billed cycle only; forever every cycle", () => {
    const once = { ...launch20, duration: "once" as const };
    expect(discountCovers(once, first, first)).toBe(true);
    expect(discountCovers(once, first, new Date("2026-02-28T10:00:00Z"))).toBe(false);
    expect(discountCovers({ ...launch20, duration: "forever" }, first, new Date("2036-01-01T00:00:00Z"))).toBe(true);
  });

  it("adds months on the same day, or the month's last", () => {
    expect(addPeriods(first, "month", 1).toISOString()).toBe("2026-02-28T10:00:00.000Z");
    expect(addPeriods(first, "month", 2).toISOString()).toBe("2026-03-31T10:00:00.000Z");
    expect(addPeriods(new Date("2028-02-29T00:00:00Z"), "year", 1).toISOString()).toBe("2029-02-28T00:00:00.000Z");
  });
});

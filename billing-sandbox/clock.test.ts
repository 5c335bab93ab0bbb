import { afterEach, describe, expect, it } from "vitest";
import { addInterval, nextPeriodEnd, periodEnd } from "./clock";

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();

describe("billing period arithmetic", () => {
  const zone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = zone;
  });

  it("adds a month to Jan 31 as the last day of February (Feb 29 in a leap year), not Mar 3", () => {
    expect(iso(addInterval(at("2025-01-31T09:30:00.000Z"), "month"))).toBe("2025-02-28T09:30:00.000Z");
    expect(iso(addInterval(at("2024-01-31T09:30:00.000Z"), "month"))).toBe("2024-02-29T09:30:00.000Z");
    expect(iso(addInterval(at("2024-02-29T00:00:00.000Z"), "year"))).toBe("2025-02-28T00:00:00.000Z");
    expect(iso(addInterval(at("2025-03-31T00:00:00.000Z"), "month", 3))).toBe("2025-06-30T00:00:00.000Z");
    expect(iso(addInterval(at("2025-12-31T23:59:59.000Z"), "week", 2))).toBe("2026-01-14T23:59:59.000Z");
    expect(iso(addInterval(at("2025-03-01T00:00:00.000Z"), "day", -1))).toBe("2025-02-28T00:00:00.000Z");
  });

  it("counts every renewal from the anchor, so month ends do not drift", () => {
    const anchor = at("2025-01-31T12:00:00.000Z");
    const ends = [1, 2, 3, 4, 5, 12, 13].map((index) => iso(periodEnd(anchor, "month", 1, index)));
    expect(ends).toEqual([
      "2025-02-28T12:00:00.000Z",
      "2025-03-31T12:00:00.000Z",
      "2025-04-30T12:00:00.000Z",
      "2025-05-31T12:00:00.000Z",
      "2025-06-30T12:00:00.000Z",
      "2026-01-31T12:00:00.000Z",
      "2026-02-28T12:00:00.000Z",
    ]);
    // Chaining would have clamped once and stayed there.
    expect(iso(addInterval(addInterval(anchor, "month"), "month"))).toBe("2025-03-28T12:00:00.000Z");
    // A yearly plan bought on Feb 29 renews on Feb 28, and on Feb 29 again in the next leap year.
    const leap = at("2024-02-29T00:00:00.000Z");
    expect([1, 2, 3, 4].map((index) => iso(periodEnd(leap, "year", 1, index)))).toEqual([
      "2025-02-28T00:00:00.000Z",
      "2026-02-28T00:00:00.000Z",
      "2027-02-28T00:00:00.000Z",
      "2028-02-29T00:00:00.000Z",
    ]);
  });

  it("finds the next period end after an instant on the anchor's calendar", () => {
    const anchor = at("2025-01-31T12:00:00.000Z");
    let end = at("2025-02-28T12:00:00.000Z");
    const renewals: string[] = [];
    for (let renewal = 0; renewal < 4; renewal += 1) {
      end = nextPeriodEnd(anchor, "month", 1, end);
      renewals.push(iso(end));
    }
    expect(renewals).toEqual([
      "2025-03-31T12:00:00.000Z",
      "2025-04-30T12:00:00.000Z",
      "2025-05-31T12:00:00.000Z",
      "2025-06-30T12:00:00.000Z",
    ]);
    expect(iso(nextPeriodEnd(anchor, "month", 3, at("2025-04-30T12:00:00.000Z")))).toBe("2025-07-31T12:00:00.000Z");
    expect(iso(nextPeriodEnd(anchor, "year", 1, at("2031-06-01T00:00:00.000Z")))).toBe("2032-01-31T12:00:00.000Z");
    expect(iso(nextPeriodEnd(anchor, "week", 2, at("2025-02-14T12:00:00.000Z")))).toBe("2025-02-28T12:00:00.000Z");
    expect(iso(nextPeriodEnd(anchor, "day", 1, anchor))).toBe("2025-02-01T12:00:00.000Z");
  });

  it("computes in UTC whatever the host's time zone", () => {
    for (const timeZone of ["America/New_York", "Pacific/Auckland", "Asia/Kolkata"]) {
      process.env.TZ = timeZone;
      expect(iso(addInterval(at("2025-01-31T00:00:00.000Z"), "month"))).toBe("2025-02-28T00:00:00.000Z");
      expect(iso(addInterval(at("2025-03-31T01:30:00.000Z"), "month"))).toBe("2025-04-30T01:30:00.000Z");
      expect(iso(periodEnd(at("2025-10-31T23:30:00.000Z"), "month", 1, 1))).toBe("2025-11-30T23:30:00.000Z");
      expect(iso(addInterval(at("2025-03-08T23:30:00.000Z"), "day", 1))).toBe("2025-03-09T23:30:00.000Z");
    }
  });
});

import { describe, expect, it } from "vitest";
import { aggregate, filterMatches } from "./meters.service";
import type { EventRecord } from "./records";

const event = (name: string, metadata: Record<string, unknown>): EventRecord => ({
  id: name,
  timestamp: "2026-01-01T00:00:00.000Z",
  name,
  source: "user",
  customer_id: null,
  external_customer_id: "org",
  external_id: null,
  metadata,
});

describe("meter filters and aggregations", () => {
  const events = [10, 20, 30, 30].map((tokens) =>
    event("completion", { total_tokens: tokens, usage: { model: tokens > 15 ? "large" : "small" } }),
  );

  it("aggregates like the provider's documented example", () => {
    expect(aggregate(events, { func: "count" })).toBe(4);
    expect(aggregate(events, { func: "sum", property: "total_tokens" })).toBe(90);
    expect(aggregate(events, { func: "avg", property: "total_tokens" })).toBe(22.5);
    expect(aggregate(events, { func: "min", property: "total_tokens" })).toBe(10);
    expect(aggregate(events, { func: "max", property: "total_tokens" })).toBe(30);
    expect(aggregate(events, { func: "unique", property: "total_tokens" })).toBe(3);
    expect(aggregate([event("x", { total_tokens: "12" })], { func: "sum", property: "total_tokens" })).toBe(0);
  });

  it("matches clauses on name, metadata paths, and nested and/or filters; mismatched types never match", () => {
    const [small, large] = [events[0] as EventRecord, events[1] as EventRecord];
    expect(filterMatches(small, { conjunction: "and", clauses: [] })).toBe(true);
    expect(
      filterMatches(small, {
        conjunction: "and",
        clauses: [{ property: "name", operator: "eq", value: "completion" }],
      }),
    ).toBe(true);
    expect(
      filterMatches(large, {
        conjunction: "and",
        clauses: [{ property: "metadata.usage.model", operator: "like", value: "arg" }],
      }),
    ).toBe(true);
    expect(
      filterMatches(small, { conjunction: "and", clauses: [{ property: "total_tokens", operator: "gt", value: "5" }] }),
    ).toBe(false);
    expect(
      filterMatches(small, { conjunction: "and", clauses: [{ property: "missing", operator: "ne", value: 1 }] }),
    ).toBe(false);
    const filter = {
      conjunction: "and" as const,
      clauses: [
        { property: "name", operator: "eq" as const, value: "completion" },
        {
          conjunction: "or" as const,
          clauses: [
            { property: "total_tokens", operator: "gte" as const, value: 30 },
            { property: "usage.model", operator: "eq" as const, value: "small" },
          ],
        },
      ],
    };
    expect(events.map((candidate) => filterMatches(candidate, filter))).toEqual([true, false, true, true]);
  });
});

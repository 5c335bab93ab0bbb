import { describe, expect, it } from "vitest";
import { backoffMs } from "./backoff";

describe("backoffMs", () => {
  it("starts at the base after the first attempt and doubles with each further one", () => {
    expect([1, 2, 3, 4].map((attempt) => backoffMs(attempt, { baseMs: 500 }))).toEqual([500, 1_000, 2_000, 4_000]);
  });

  it("never exceeds the cap", () => {
    expect([4, 5, 6, 50].map((attempt) => backoffMs(attempt, { baseMs: 500, maxMs: 8_000 }))).toEqual([
      4_000, 8_000, 8_000, 8_000,
    ]);
  });
});

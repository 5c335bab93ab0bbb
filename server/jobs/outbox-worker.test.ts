import { describe, expect, test } from "vitest";
import { MAX_MAIL_ATTEMPTS, retryDelayMs } from "./outbox-worker";

describe("retryDelayMs", () => {
  test("doubles from 5 seconds", () => {
    expect([1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
  });

  test("is capped at one hour", () => {
    expect(retryDelayMs(11)).toBe(3_600_000);
    expect(retryDelayMs(50)).toBe(3_600_000);
    expect(retryDelayMs(10)).toBe(2_560_000);
  });

  test("the whole retry schedule of one mail stays within a day", () => {
    const total = Array.from({ length: MAX_MAIL_ATTEMPTS - 1 }, (_, index) => retryDelayMs(index + 1)).reduce((sum, delay) => sum + delay, 0);
    expect(MAX_MAIL_ATTEMPTS).toBe(10);
    expect(total).toBe(5_000 * (2 ** 9 - 1));
    expect(total).toBeLessThan(24 * 3_600_000);
  });
});

import { describe, expect, test } from "vitest";
import { FAILED_START_WINDOW_MS, MAX_FAILED_STARTS, RestartPolicy, STARTUP_GRACE_MS } from "./cluster";

describe("RestartPolicy", () => {
  test("a worker that ran is replaced at once, every time", () => {
    const policy = new RestartPolicy();
    for (let minute = 1; minute <= 20; minute += 1) {
      const now = minute * 60_000;
      expect(policy.afterExit(now - STARTUP_GRACE_MS, now)).toBe(0);
    }
  });

  test("workers that fail to start are replaced later and later, then the primary gives up", () => {
    const policy = new RestartPolicy();
    const delays: Array<number | null> = [];
    let now = 1_000_000;
    for (let attempt = 0; attempt < MAX_FAILED_STARTS; attempt += 1) {
      // Alternately: never listened, and exited just after listening.
      delays.push(policy.afterExit(attempt % 2 === 0 ? undefined : now - 100, now));
      now += 3_000;
    }
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, null]);
  });

  test("failed starts older than the window are forgotten", () => {
    const policy = new RestartPolicy();
    for (let attempt = 0; attempt < MAX_FAILED_STARTS - 1; attempt += 1)
      expect(policy.afterExit(undefined, attempt)).not.toBeNull();
    expect(policy.afterExit(undefined, FAILED_START_WINDOW_MS + MAX_FAILED_STARTS)).toBe(500);
    // A worker that ran, while failed starts are still recent, waits as long as they say.
    expect(policy.afterExit(0, FAILED_START_WINDOW_MS + MAX_FAILED_STARTS + 1)).toBe(500);
  });
});

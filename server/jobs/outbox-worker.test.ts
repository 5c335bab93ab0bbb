import type { Kysely } from "kysely";
import { describe, expect, test } from "vitest";
import type { Database } from "../db/schema";
import { createLogger } from "../logger";
import { SMTP_TIMEOUTS } from "../modules/mail";
import { LEASE_MS, MAX_MAIL_ATTEMPTS, retryDelayMs, SEND_TIMEOUT_MS, startOutboxWorker } from "./outbox-worker";

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
    const total = Array.from({ length: MAX_MAIL_ATTEMPTS - 1 }, (_, index) => retryDelayMs(index + 1)).reduce(
      (sum, delay) => sum + delay,
      0,
    );
    expect(total).toBe(5_000 * (2 ** 9 - 1));
    expect(total).toBeLessThan(24 * 3_600_000);
  });
});

describe("lease and send timeout", () => {
  test("the lease outlives the longest send, and each of nodemailer's own timeouts is shorter than that send", () => {
    expect(LEASE_MS).toBeGreaterThan(SEND_TIMEOUT_MS);
    for (const timeout of Object.values(SMTP_TIMEOUTS)) expect(timeout).toBeLessThan(SEND_TIMEOUT_MS);
  });

  test("a worker refuses a lease that is not longer than its send timeout", () => {
    const deps = {
      db: {} as Kysely<Database>,
      transport: { kind: "smtp" as const, send: async () => undefined },
      logger: createLogger("silent"),
    };
    expect(() => startOutboxWorker({ ...deps, sendTimeoutMs: 1_000, leaseMs: 1_000 })).toThrow(RangeError);
    expect(() => startOutboxWorker({ ...deps, leaseMs: SEND_TIMEOUT_MS })).toThrow(RangeError);
  });
});

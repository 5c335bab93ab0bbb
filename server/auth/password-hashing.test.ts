import { describe, expect, test } from "vitest";
import { hashPassword } from "better-auth/crypto";
import { boundedPasswordHashing, createLimiter } from "./password-hashing";

describe("createLimiter", () => {
  test("runs at most its concurrency at a time, the rest in order, and passes results and errors through", async () => {
    const limit = createLimiter(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (index: number) =>
      limit(async () => {
        started.push(index);
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        if (index === 3) throw new Error("task 3 failed");
        return index * 10;
      });
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map(task));
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(
      results.map((result) => (result.status === "fulfilled" ? result.value : (result.reason as Error).message)),
    ).toEqual([0, 10, 20, "task 3 failed", 40, 50]);
  });
});

describe("boundedPasswordHashing", () => {
  test("verifies better-auth's own hashes, and its hashes verify", async () => {
    const hashing = boundedPasswordHashing(1);
    const existing = await hashPassword("correct horse battery");
    expect(await hashing.verify({ hash: existing, password: "correct horse battery" })).toBe(true);
    expect(await hashing.verify({ hash: existing, password: "wrong" })).toBe(false);
    const made = await hashing.hash("another secret");
    expect(await hashing.verify({ hash: made, password: "another secret" })).toBe(true);
  });
});

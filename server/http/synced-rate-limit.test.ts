import { describe, expect, it } from "vitest";
import { recordingLogger, type LogRecord } from "../test/recording-logger";
import { seededRandom } from "../test/seeded-random";
import type { SharedCounters } from "./rate-limit-store";
import { createSyncedRateLimiter, unsentBound, type RateLimitDecision } from "./synced-rate-limit";

/** 15 s into a minute: the window's end is 45 s away. */
const START = Date.UTC(2026, 11, 2, 12, 0, 15);

/**
 * The shared store in memory. An addition is applied, and its totals read, when the test settles it (as a statement
 * commits), so other instances' requests can be decided while one is on its way; `failing` makes additions reject.
 */
function memoryStore() {
  const totals = new Map<string, number>();
  const inFlight: Array<() => void> = [];
  const store = {
    totals,
    additions: 0,
    failing: false,
    /** Whether additions wait for `settleOne` (true) or settle on their own at once. */
    held: false,
    get inFlight() {
      return inFlight.length;
    },
    /** Settles the oldest addition on its way. */
    settleOne() {
      inFlight.shift()?.();
    },
    add: (amounts: ReadonlyMap<string, number>): Promise<Map<string, number>> => {
      store.additions += 1;
      if (store.failing) return Promise.reject(new Error("the store does not answer"));
      const apply = () => {
        const answer = new Map<string, number>();
        for (const [key, amount] of amounts) {
          const total = (totals.get(key) ?? 0) + amount;
          totals.set(key, total);
          answer.set(key, total);
        }
        return answer;
      };
      if (!store.held) return Promise.resolve(apply());
      return new Promise((resolve) => inFlight.push(() => resolve(apply())));
    },
  } satisfies SharedCounters & Record<string, unknown>;
  return store;
}

function limiter(store: SharedCounters, max: number, clock: { now: number }, logs: LogRecord[] = []) {
  return createSyncedRateLimiter({
    counters: store,
    max,
    windowSeconds: 60,
    prefix: "test:",
    logger: recordingLogger(logs),
    now: () => clock.now,
    background: false,
  });
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("the synced rate limiter", () => {
  it("admits exactly the limit on one instance, refuses the rest of the minute, seldom calls the store", async () => {
    const store = memoryStore();
    const clock = { now: START };
    const one = limiter(store, 1000, clock);
    expect(unsentBound(1000)).toBe(10);
    const decisions: RateLimitDecision[] = [];
    for (let count = 0; count < 1001; count += 1) decisions.push(await one.take("key"));
    expect(decisions.slice(0, 1000).every((decision) => decision.allowed)).toBe(true);
    expect(decisions[1000]).toEqual({ allowed: false, retryAfter: 45 });
    // The first request read the total; then one addition every 10 requests (the unsent bound), none for the refusal.
    expect(store.additions).toBe(101);
    expect(one.tryTake("key")).toBe(false);
    clock.now = START + 44_001;
    expect(await one.take("key")).toEqual({ allowed: false, retryAfter: 1 });
    clock.now = START + 45_000;
    expect(await one.take("key")).toEqual({ allowed: true, retryAfter: null });
    await one.stop();
    expect(store.totals).toEqual(
      new Map([
        [`test:key:${START - 15_000}`, 1000],
        [`test:key:${START + 45_000}`, 1],
      ]),
    );
  });

  it("admits from memory only once it knows the store's total, and counts no request it does not admit", async () => {
    const store = memoryStore();
    const clock = { now: START };
    const one = limiter(store, 200, clock);
    expect(one.tryTake("key")).toBe(false);
    expect(store.additions).toBe(0);
    expect(await one.take("key")).toEqual({ allowed: true, retryAfter: null });
    expect(one.tryTake("key")).toBe(true);
    // Two unsent (the bound of 200): the next must wait for a sync.
    expect(one.tryTake("key")).toBe(false);
    await one.syncNow();
    expect(store.totals.get(`test:key:${START - 15_000}`)).toBe(2);
    // Another instance spent the rest of the minute; once synced, this one refuses from memory and counts nothing.
    store.totals.set(`test:key:${START - 15_000}`, 200);
    expect(one.tryTake("key")).toBe(true);
    await one.syncNow();
    expect(one.tryTake("key")).toBe(false);
    expect(await one.take("key")).toEqual({ allowed: false, retryAfter: 45 });
    await one.stop();
    expect(store.totals.get(`test:key:${START - 15_000}`)).toBe(201);
  });

  it("lets at most the limit and each other instance's unsent bound through, however requests interleave", async () => {
    const max = 500;
    const bound = unsentBound(max);
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = seededRandom(seed);
      const store = memoryStore();
      store.held = true;
      const clock = { now: START };
      const instances = [limiter(store, max, clock), limiter(store, max, clock), limiter(store, max, clock)];
      const decisions: Array<Promise<RateLimitDecision>> = [];
      for (let step = 0; step < 3000; step += 1) {
        if (store.inFlight > 0 && random() < 0.3) store.settleOne();
        else {
          const instance = instances[Math.floor(random() * instances.length)]!;
          if (random() < 0.5 || !instance.tryTake("key")) decisions.push(instance.take("key"));
          else decisions.push(Promise.resolve({ allowed: true, retryAfter: null }));
        }
        await flush();
      }
      while (store.inFlight > 0) {
        store.settleOne();
        await flush();
      }
      const admitted = (await Promise.all(decisions)).filter((decision) => decision.allowed).length;
      store.held = false;
      for (const instance of instances) await instance.stop();
      expect(admitted).toBeGreaterThanOrEqual(max);
      expect(admitted).toBeLessThanOrEqual(max + (instances.length - 1) * bound);
      // Every request let through is counted once in the store.
      expect(store.totals.get(`test:key:${START - 15_000}`)).toBe(admitted);
    }
  });

  it("limits on its own counts while the store does not answer, and sends them once it answers", async () => {
    const store = memoryStore();
    const clock = { now: START };
    const logs: LogRecord[] = [];
    const one = limiter(store, 100, clock, logs);
    expect(await one.take("key")).toEqual({ allowed: true, retryAfter: null });
    store.failing = true;
    const decisions: RateLimitDecision[] = [];
    for (let count = 0; count < 100; count += 1) decisions.push(await one.take("key"));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(99);
    expect(decisions[99]).toEqual({ allowed: false, retryAfter: 45 });
    expect(logs.map((log) => `${log.level}: ${log.message}`)).toEqual([
      "warn: rate limiter: the shared counters do not answer; each instance limits on its own counts",
    ]);
    store.failing = false;
    await one.syncNow();
    expect(store.totals.get(`test:key:${START - 15_000}`)).toBe(100);
    expect(logs.at(-1)?.message).toBe("rate limiter: the shared counters answer again; limits are shared again");
    await one.stop();
  });

  it("sends what it counted when it stops, so the next process on the same store starts from it", async () => {
    const store = memoryStore();
    const clock = { now: START };
    const first = limiter(store, 1000, clock);
    for (let count = 0; count < 995; count += 1) await first.take("key");
    await first.stop();
    const restarted = limiter(store, 1000, clock);
    const decisions: RateLimitDecision[] = [];
    for (let count = 0; count < 6; count += 1) decisions.push(await restarted.take("key"));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5);
    expect(decisions[5]).toEqual({ allowed: false, retryAfter: 45 });
    await restarted.stop();
  });
});

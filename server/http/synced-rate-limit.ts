import type { Logger } from "../logger";
import type { SharedCounters } from "./rate-limit-store";

/** What a limiter answers for one request: admitted (and counted), or refused until the window ends. */
export type RateLimitDecision = { allowed: true; retryAfter: null } | { allowed: false; retryAfter: number };

/**
 * A rate limit of `max` requests per key in each window of the clock (each whole minute for a 60 s window),
 * counted in this process and shared with every instance through the rate-limit store (docs/decisions/0027):
 *
 * - A request is decided on this instance's view of the window: the store's total at its last sync (every
 *   instance's requests that had been sent by then) plus the requests it admitted since. Deciding costs no store
 *   round trip, and no promise when it can admit (`tryTake`).
 * - In the background (every SYNC_EVERY_MS, and early once a key has half its unsent bound), one call per sync
 *   adds the counts made here since the last one to the store's counters and reads back their totals.
 * - An instance admits at most `unsentAtMost` requests of a key between two syncs; a request past that waits for a
 *   sync. So across N instances a key gets at most `max + (N − 1) × unsentAtMost` requests through in a window, and
 *   on one instance (each process of a cluster is one) exactly `max`: its view is then the true count.
 * - A key's first request in a window on an instance waits for the store's total, so a restarted instance (which
 *   sent what it had counted when it stopped) starts from the shared count.
 * - While the store does not answer, each instance goes on deciding on its own counts: at most `max` a window each.
 */
export type SyncedRateLimiter = {
  /**
   * Admits and counts the request when this instance can decide from memory alone; false when it cannot, or must
   * refuse it: then `take` decides. Synchronous, for a replayed answer (server/http/response-cache.ts).
   */
  tryTake(key: string): boolean;
  /** Admits and counts the request, or refuses it; waits for the store only when its view of the key is due. */
  take(key: string): Promise<RateLimitDecision>;
  /** Sends the counts made here since the last sync and reads their totals, as the background sync does. */
  syncNow(): Promise<void>;
  /** Stops the background sync and sends what is left. */
  stop(): Promise<void>;
};

export type SyncedRateLimiterOptions = {
  counters: SharedCounters;
  /** Requests one key may make in a window, on every instance together. */
  max: number;
  windowSeconds: number;
  /** The store's key of a key's counter in a window is `${prefix}${key}:${window start in ms}`. */
  prefix: string;
  logger: Logger;
  /** The clock of the windows; tests set it. */
  now?: () => number;
  /**
   * Whether counts are sent every SYNC_EVERY_MS, and early when a key nears its unsent bound (true outside tests).
   * Without, only a request that must wait, `syncNow` and `stop` send them: a test decides when.
   */
  background?: boolean;
};

/** How often the counts made here are sent to the store, and the other instances' read back. */
export const SYNC_EVERY_MS = 200;

/** The most requests of one key an instance admits between two syncs: 1 % of the limit (at least 1). */
export function unsentBound(max: number): number {
  return Math.max(1, Math.floor(max / 100));
}

type Counter = {
  /** The window's number: its start is `window × windowMs`. */
  window: number;
  /** The store's total for the window at the last sync, every instance's requests included; undefined before one. */
  shared: number | undefined;
  /** Requests admitted here and being added to the store by the sync in flight. */
  sending: number;
  /** Requests admitted here since, not sent yet. */
  unsent: number;
};

type Verdict = "admit" | "refuse" | "sync";

export function createSyncedRateLimiter(options: SyncedRateLimiterOptions): SyncedRateLimiter {
  const { counters: store, max, prefix, logger, background = true } = options;
  const now = options.now ?? Date.now;
  const windowMs = options.windowSeconds * 1000;
  const unsentAtMost = unsentBound(max);
  const counters = new Map<string, Counter>();
  let isFailing = false;
  let isStopped = false;

  function counterOf(key: string, at: number): Counter {
    const window = Math.floor(at / windowMs);
    let counter = counters.get(key);
    if (counter?.window !== window) {
      counter = { window, shared: undefined, sending: 0, unsent: 0 };
      counters.set(key, counter);
    }
    return counter;
  }

  function verdict(counter: Counter): Verdict {
    const here = counter.sending + counter.unsent;
    if (!isFailing && (counter.shared === undefined || here >= unsentAtMost)) return "sync";
    return (counter.shared ?? 0) + here < max ? "admit" : "refuse";
  }

  function admit(counter: Counter): void {
    counter.unsent += 1;
    if (background && !isStopped && !isFailing && 2 * (counter.sending + counter.unsent) >= unsentAtMost) void sync();
  }

  /** Sends every key's unsent count (and reads the keys this instance has no total for); never rejects. */
  async function send(): Promise<void> {
    const window = Math.floor(now() / windowMs);
    const sent: Array<{ storeKey: string; counter: Counter }> = [];
    const amounts = new Map<string, number>();
    for (const [key, counter] of counters) {
      // A minute that is over is forgotten, with what was not sent of it: no request is decided on it any more.
      if (counter.window < window) {
        counters.delete(key);
        continue;
      }
      if (counter.unsent === 0 && counter.shared !== undefined) continue;
      counter.sending = counter.unsent;
      counter.unsent = 0;
      const storeKey = `${prefix}${key}:${counter.window * windowMs}`;
      amounts.set(storeKey, counter.sending);
      sent.push({ storeKey, counter });
    }
    if (amounts.size === 0) return;
    try {
      // Kept two windows: a counter is read until its window ends, on clocks a little apart.
      const totals = await store.add(amounts, (2 * windowMs) / 1000);
      if (sent.some(({ storeKey }) => totals.get(storeKey) === undefined))
        throw new Error("the store answered no total for a counter it was sent");
      for (const { storeKey, counter } of sent) {
        counter.shared = totals.get(storeKey);
        counter.sending = 0;
      }
      if (isFailing) logger.info("rate limiter: the shared counters answer again; limits are shared again");
      isFailing = false;
    } catch (error) {
      // Sent again with the next sync; until then each instance decides on its own counts.
      for (const { counter } of sent) {
        counter.unsent += counter.sending;
        counter.sending = 0;
      }
      if (!isFailing)
        logger.warn("rate limiter: the shared counters do not answer; each instance limits on its own counts", {
          error: error instanceof Error ? error.message : String(error),
        });
      isFailing = true;
    }
  }

  let sending: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  /** One sync at a time; a caller arriving during one gets the next, which starts after it. */
  function sync(): Promise<void> {
    if (!sending) {
      sending = send().finally(() => {
        sending = undefined;
      });
      return sending;
    }
    queued ??= sending.then(() => {
      queued = undefined;
      return sync();
    });
    return queued;
  }

  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    await sync();
    if (!isStopped) timer = setTimeout(tick, SYNC_EVERY_MS).unref();
  };
  if (background) timer = setTimeout(tick, SYNC_EVERY_MS).unref();

  return {
    tryTake(key) {
      const counter = counterOf(key, now());
      if (verdict(counter) !== "admit") return false;
      admit(counter);
      return true;
    },
    async take(key) {
      for (;;) {
        const at = now();
        const counter = counterOf(key, at);
        const decided = verdict(counter);
        if (decided === "admit") {
          admit(counter);
          return { allowed: true, retryAfter: null };
        }
        if (decided === "refuse") {
          const windowEndsAt = (counter.window + 1) * windowMs;
          return { allowed: false, retryAfter: Math.max(1, Math.ceil((windowEndsAt - at) / 1000)) };
        }
        await sync();
      }
    },
    syncNow: sync,
    async stop() {
      isStopped = true;
      clearTimeout(timer);
      await sync();
    },
  };
}

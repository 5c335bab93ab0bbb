import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { sql, type Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { Logger } from "../logger";

/** better-auth's atomic rate-limit storage contract. */
export type RateLimitStore = {
  consume(key: string, rule: { window: number; max: number }): Promise<{ allowed: boolean; retryAfter: number | null }>;
};

// One round trip, atomic: count the request, start the window on the first one, report the time left.
const CONSUME_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/**
 * Plain counters in the same store, which the app's in-process limiters (server/http/synced-rate-limit.ts) send
 * their counts to and read every instance's totals from, in the background.
 */
export type SharedCounters = {
  /**
   * Adds each amount to its counter (a counter starts at 0; an amount of 0 only reads it) and answers every
   * counter's total after the additions, all instances' together. A counter is kept at least `keepSeconds` after
   * its last addition. Rejects when the store does not answer.
   */
  add(amounts: ReadonlyMap<string, number>, keepSeconds: number): Promise<Map<string, number>>;
};

// One round trip per counter, atomic: add, keep it `keepSeconds` more, answer the total.
const ADD_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return count
`;

/** Rate-limit counters in Redis, shared by every instance (used when REDIS_URL is set). */
export function createRedisRateLimitStore(
  redis: Redis,
  prefix = "atrium:rate-limit:",
): RateLimitStore & SharedCounters {
  return {
    async add(amounts, keepSeconds) {
      // One pipeline: every counter in one round trip, each on its own key (no multi-key script).
      const pipeline = redis.pipeline();
      for (const [key, amount] of amounts)
        pipeline.eval(ADD_SCRIPT, 1, `${prefix}${key}`, String(amount), String(keepSeconds));
      const results = (await pipeline.exec()) ?? [];
      const totals = new Map<string, number>();
      let index = 0;
      for (const key of amounts.keys()) {
        const [error, total] = results[index] ?? [new Error("Redis answered fewer counters than it was sent")];
        if (error) throw error;
        totals.set(key, Number(total));
        index += 1;
      }
      return totals;
    },
    async consume(key, rule) {
      const [count, ttl] = (await redis.eval(CONSUME_SCRIPT, 1, `${prefix}${key}`, String(rule.window))) as [
        number,
        number,
      ];
      return count <= rule.max ? { allowed: true, retryAfter: null } : { allowed: false, retryAfter: Math.max(1, ttl) };
    },
  };
}

const PRUNE_EVERY_MS = 60_000;
/** Counters added in one statement: 4 parameters each, far under SQLite's limit of 32,766. */
const ADD_BATCH = 500;

/**
 * Rate-limit counters in better-auth's `rateLimit` table, with the semantics of better-auth's own database
 * storage (a window restarts once `window` seconds pass without an allowed request; every allowed request
 * moves `lastRequest`), decided in one upsert so that it is atomic on SQLite and PostgreSQL alike.
 * better-auth's own storage cannot be wrapped, and it must be for the limiter to fail open. The shared counters
 * are rows of the same table, added to in one upsert per 500 counters (`lastRequest` is their last addition).
 */
export function createDatabaseRateLimitStore(
  db: Kysely<Database>,
  options: { longestWindowSeconds: number; logger: Logger },
): RateLimitStore & SharedCounters {
  const { logger } = options;
  let longestWindowSeconds = options.longestWindowSeconds;
  let lastPruneAt = 0;

  // Rows of addresses that went quiet are deleted, but never one whose longest window can still be running, nor a
  // counter added to in the last `keepSeconds`.
  async function prune(now: number): Promise<void> {
    if (now - lastPruneAt < PRUNE_EVERY_MS) return;
    lastPruneAt = now;
    await db
      .deleteFrom("rateLimit")
      .where("lastRequest", "<", now - longestWindowSeconds * 1000)
      .execute()
      .catch((error: unknown) =>
        logger.warn("rate limiter: pruning old counters failed", { error: describeError(error) }),
      );
  }

  return {
    async add(amounts, keepSeconds) {
      longestWindowSeconds = Math.max(longestWindowSeconds, keepSeconds);
      const now = Date.now();
      const totals = new Map<string, number>();
      // In key order: two instances adding the same counters lock their rows in the same order (no deadlock).
      const entries = [...amounts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (let start = 0; start < entries.length; start += ADD_BATCH) {
        const rows = await db
          .insertInto("rateLimit")
          .values(
            entries
              .slice(start, start + ADD_BATCH)
              .map(([key, amount]) => ({ id: randomUUID(), key, count: amount, lastRequest: now })),
          )
          .onConflict((conflict) =>
            conflict.column("key").doUpdateSet({
              count: sql<number>`${sql.ref("rateLimit.count")} + ${sql.ref("excluded.count")}`,
              lastRequest: now,
            }),
          )
          .returning(["key", "count"])
          .execute();
        for (const row of rows) totals.set(row.key, Number(row.count));
      }
      await prune(now);
      return totals;
    },
    async consume(key, rule) {
      longestWindowSeconds = Math.max(longestWindowSeconds, rule.window);
      const now = Date.now();
      const windowStartedBefore = now - rule.window * 1000;
      const lastRequest = sql.ref("rateLimit.lastRequest");
      const count = sql.ref("rateLimit.count");
      const isExpired = sql<boolean>`${lastRequest} <= ${windowStartedBefore}`;
      // A refused request leaves `lastRequest` alone and the count at max + 1 (never higher: a flood cannot
      // overflow the column), so `count <= max` in the returned row is the decision.
      const row = await db
        .insertInto("rateLimit")
        .values({ id: randomUUID(), key, count: 1, lastRequest: now })
        .onConflict((conflict) =>
          conflict.column("key").doUpdateSet({
            count: sql<number>`case when ${isExpired} then 1 when ${count} <= ${rule.max} then ${count} + 1 else ${count} end`,
            lastRequest: sql<number>`case when ${isExpired} or ${count} < ${rule.max} then ${now} else ${lastRequest} end`,
          }),
        )
        .returning(["count", "lastRequest"])
        .executeTakeFirstOrThrow();
      await prune(now);
      if (row.count <= rule.max) return { allowed: true, retryAfter: null };
      return {
        allowed: false,
        retryAfter: Math.max(1, Math.ceil((Number(row.lastRequest) + rule.window * 1000 - now) / 1000)),
      };
    },
  };
}

/** What went wrong, without a stack or a driver's `detail` (PostgreSQL puts row values there). */
function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, ...(code === undefined ? {} : { code }), message: error.message };
}

const WARN_EVERY_MS = 60_000;

export type RateLimitStoreHealth = {
  /** Bumped each time the store starts failing. */
  readonly outage: number;
  /** `request`: a request was let through unlimited; `connection`: the store's client reported an error. */
  failed(error: unknown, kind: "request" | "connection"): void;
  /** The store answered; pass the `outage` read before the call, whose answer says nothing about a failure that began after it. */
  recovered(outageAtStart?: number): void;
};

/**
 * The log of a rate-limit store's outages, throttled so that an outage does not write a line per request or
 * per reconnection attempt: one warning when the store starts failing, at most one a minute while it keeps
 * failing, one info line when it answers again. No line names a client or a key.
 */
export function createRateLimitStoreHealth(
  logger: Logger,
  options: { store: "redis" | "database"; now?: () => number },
): RateLimitStoreHealth {
  const { store } = options;
  const now = options.now ?? Date.now;
  let outage = 0;
  let failingSince: number | undefined;
  let lastWarnAt = 0;
  let letThrough = 0;
  const seconds = (ms: number) => Math.round(ms / 1000);

  return {
    get outage() {
      return outage;
    },
    failed(error, kind) {
      const at = now();
      if (failingSince === undefined) {
        outage += 1;
        failingSince = at;
        lastWarnAt = at;
        letThrough = kind === "request" ? 1 : 0;
        logger.warn("rate limiter: the store is failing; requests pass unlimited until it answers again", {
          store,
          error: describeError(error),
        });
        return;
      }
      if (kind === "request") letThrough += 1;
      if (at - lastWarnAt < WARN_EVERY_MS) return;
      lastWarnAt = at;
      logger.warn("rate limiter: the store is still failing; requests pass unlimited", {
        store,
        failingForSeconds: seconds(at - failingSince),
        requestsLetThrough: letThrough,
        error: describeError(error),
      });
    },
    recovered(outageAtStart) {
      if (failingSince === undefined || (outageAtStart !== undefined && outageAtStart !== outage)) return;
      logger.info("rate limiter: the store answers again; requests are limited", {
        store,
        failedForSeconds: seconds(now() - failingSince),
        requestsLetThrough: letThrough,
      });
      failingSince = undefined;
    },
  };
}

/**
 * A store that fails open: when the underlying store throws (Redis down or timing out, a database error),
 * the request passes unlimited rather than better-auth turning every auth request into a 500 (it calls the
 * store outside any catch). Locking everyone out, or failing sign-ins, for a counter outage is worse than a
 * short window without limits; the health log says when that window opens and closes.
 */
export function failOpen(store: RateLimitStore, health: RateLimitStoreHealth): RateLimitStore {
  return {
    async consume(key, rule) {
      const outageAtStart = health.outage;
      try {
        const decision = await store.consume(key, rule);
        health.recovered(outageAtStart);
        return decision;
      } catch (error) {
        health.failed(error, "request");
        return { allowed: true, retryAfter: null };
      }
    },
  };
}

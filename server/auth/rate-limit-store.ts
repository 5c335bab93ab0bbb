import type { Redis } from "ioredis";

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

/** Rate-limit counters in Redis, shared by every instance (used when REDIS_URL is set). */
export function createRedisRateLimitStore(redis: Redis, prefix = "atrium:rate-limit:"): RateLimitStore {
  return {
    async consume(key, rule) {
      const [count, ttl] = (await redis.eval(CONSUME_SCRIPT, 1, `${prefix}${key}`, String(rule.window))) as [number, number];
      return count <= rule.max ? { allowed: true, retryAfter: null } : { allowed: false, retryAfter: Math.max(1, ttl) };
    },
  };
}

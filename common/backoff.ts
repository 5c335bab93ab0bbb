/** A retry delay: `baseMs` after the first failed attempt, doubling with each further one, at most `maxMs`. */
export type Backoff = { baseMs: number; maxMs?: number };

/**
 * Exponential backoff, the one formula for every retry: the mail outbox, the billing worker, the cluster's restarts of
 * workers that cannot start, and the billing sandbox's webhook deliveries. `attempt` counts from 1.
 */
export function backoffMs(attempt: number, { baseMs, maxMs = Number.POSITIVE_INFINITY }: Backoff): number {
  return Math.min(baseMs * 2 ** (attempt - 1), maxMs);
}

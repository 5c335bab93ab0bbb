import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import type { Logger } from "../logger";
import type { Database } from "./schema";

/**
 * A bounded, in-process cache of the reads every page makes (a session, a user's organizations and membership,
 * an organization's members), kept exact by the database's change feed (migration 0009, docs/decisions/0012):
 * triggers record each user and organization a write made stale, and every instance reads those rows a few times
 * a second and drops the entries tagged with them. The cache answers only while its last complete read of the
 * feed began less than `FRESH_FOR_MS` ago, so a change made anywhere (this instance, another one, the command
 * line, a hand-written query) shows within that bound, and an instance that cannot read the feed (the database
 * is down) stops answering from memory instead of answering stale.
 */
export type ReadCache = {
  /** The cached value of `key`, when the cache is current and the entry neither expired nor went stale. */
  get<T>(key: string): T | undefined;
  /**
   * The change-feed position before a load; `set` keeps the loaded value only if no change arrived since, so a
   * read that raced a write is never kept. Undefined while the cache is not current (then nothing is kept).
   */
  ticket(): number | undefined;
  /** Keeps `value` under `key` until one of its tags changes, `expiresAt` passes or `MAX_AGE_MS` has gone by. */
  set(key: string, value: unknown, entry: CacheEntryOptions, ticket: number | undefined): void;
  /**
   * Reads the change feed now and resolves once every change committed before the call is applied: a request
   * that wrote waits for it, so the same client's next read on this instance is already fresh.
   */
  catchUp(): Promise<void>;
  /**
   * Reads the change feed now, as the background poll does, without `catchUp`'s time limit; rejects when the read
   * fails. Tests that drive the cache (`poll: false`) read the feed with it instead of waiting for the poll.
   */
  pollNow(): Promise<void>;
  stop(): Promise<void>;
};

export type ReadCacheOptions = {
  logger: Logger;
  /** The clock of the freshness bound and of the entries' expiry; tests drive it to move time on by hand. */
  now?: () => number;
  /**
   * Whether the change feed is read in the background, every POLL_EVERY_MS (true, always outside tests). Without,
   * only `catchUp` and `pollNow` read it: a test decides when, instead of hoping the poll ran on a busy machine.
   */
  poll?: boolean;
};

export type CacheEntryOptions = {
  /** `userTag(id)` and `organizationTag(id)` of every user and organization the value shows. */
  tags: readonly string[];
  /** Ms since the epoch after which the value is wrong whatever changes (a session's expiry). */
  expiresAt?: number;
  /** Roughly what the value weighs, for the cache's size bound; small objects may leave it out. */
  bytes?: number;
};

export const userTag = (userId: string) => `user:${userId}`;
export const organizationTag = (organizationId: string) => `organization:${organizationId}`;

/** How often the change feed is read; a change shows on every instance within about this. */
const POLL_EVERY_MS = 200;
/** The cache answers only while its last complete read of the feed began this recently: the staleness bound. */
export const FRESH_FOR_MS = 1_000;
/** Longest a mutating request waits for the catch-up read before it answers (the database may hang). */
const CATCH_UP_TIMEOUT_MS = 1_000;
/** A gap in the feed's ids (a transaction that took an id and has not committed yet) is waited for this long. */
const GAP_WAIT_MS = 30_000;
const BATCH = 1_000;
/** Rows of the feed older than this are deleted; an instance that far behind is not current anyway. */
const RETENTION_SECONDS = 60 * 60;
const PURGE_EVERY_MS = 10 * 60 * 1000;
/** Longest an entry is kept without a change that drops it: a bound on anything the change feed cannot see. */
const MAX_AGE_MS = 5 * 60 * 1000;
const MAX_BYTES = 32 * 1024 * 1024;
const SMALL_ENTRY_BYTES = 256;

type Entry = { value: unknown; tags: readonly string[]; expiresAt: number };

export function createReadCache(db: Kysely<Database>, options: ReadCacheOptions): ReadCache {
  const { logger, poll = true } = options;
  const now = options.now ?? Date.now;
  const keysByTag = new Map<string, Set<string>>();
  const entries = new LRUCache<string, Entry>({
    maxSize: MAX_BYTES,
    dispose: (entry, key) => {
      for (const tag of entry.tags) {
        const keys = keysByTag.get(tag);
        keys?.delete(key);
        if (keys?.size === 0) keysByTag.delete(tag);
      }
    },
  });
  const feed = createFeedReader(db, (tags) => {
    for (const tag of tags) for (const key of [...(keysByTag.get(tag) ?? [])]) entries.delete(key);
  });

  let lastCurrentAt = Number.NEGATIVE_INFINITY;
  let isFailing = false;
  const isCurrent = () => now() - lastCurrentAt < FRESH_FOR_MS;

  let reading: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  async function readFeed(): Promise<void> {
    const startedAt = now();
    try {
      await feed.read(startedAt);
      lastCurrentAt = startedAt;
      if (isFailing) logger.info("read cache: the change feed answers again; cached reads resume");
      isFailing = false;
    } catch (error) {
      lastCurrentAt = Number.NEGATIVE_INFINITY;
      if (!isFailing)
        logger.warn("read cache: reading the change feed failed; every read goes to the database until it answers", {
          error: String(error),
        });
      isFailing = true;
      throw error;
    }
  }
  /** One read at a time; a caller arriving during a read gets the next one, which starts after its write. */
  function catchUp(): Promise<void> {
    if (!reading) {
      reading = readFeed().finally(() => {
        reading = undefined;
      });
      return reading;
    }
    queued ??= reading
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return catchUp();
      });
    return queued;
  }

  let timer: NodeJS.Timeout | undefined;
  let lastPurgeAt = now();
  let isStopped = false;
  const tick = async () => {
    await catchUp().catch(() => undefined);
    if (now() - lastPurgeAt >= PURGE_EVERY_MS) {
      lastPurgeAt = now();
      await feed
        .purge()
        .catch((error: unknown) => logger.warn("read cache: purging old change rows failed", { error: String(error) }));
    }
    if (!isStopped) timer = setTimeout(tick, POLL_EVERY_MS).unref();
  };
  if (poll) void tick();

  const cache: ReadCache = {
    get<T>(key: string) {
      if (!isCurrent()) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt > now()) return entry.value as T;
      entries.delete(key);
      return undefined;
    },
    ticket: () => (isCurrent() ? feed.generation : undefined),
    set(key, value, entry, ticket) {
      const expiresAt = Math.min(entry.expiresAt ?? Number.POSITIVE_INFINITY, now() + MAX_AGE_MS);
      if (ticket === undefined || ticket !== feed.generation || !isCurrent() || expiresAt <= now()) return;
      entries.set(
        key,
        { value, tags: entry.tags, expiresAt },
        { size: key.length + (entry.bytes ?? SMALL_ENTRY_BYTES) },
      );
      for (const tag of entry.tags) {
        const keys = keysByTag.get(tag) ?? new Set<string>();
        keys.add(key);
        keysByTag.set(tag, keys);
      }
    },
    catchUp: () =>
      new Promise<void>((resolve) => {
        const timeout = setTimeout(() => {
          lastCurrentAt = Number.NEGATIVE_INFINITY;
          resolve();
        }, CATCH_UP_TIMEOUT_MS);
        catchUp()
          .catch(() => undefined)
          .finally(() => {
            clearTimeout(timeout);
            resolve();
          });
      }),
    pollNow: () => catchUp(),
    async stop() {
      isStopped = true;
      clearTimeout(timer);
      await reading?.catch(() => undefined);
      entries.clear();
    },
  };
  return cache;
}

export type FeedReader = {
  /** Bumped by each read that applied a change. */
  readonly generation: number;
  /** Applies every change committed before the call; the first read only finds where the feed ends. */
  read(startedAt: number): Promise<void>;
  purge(): Promise<void>;
};

/**
 * Reads `cache_invalidation` in id order and hands each new row's tags to `apply`, once per row. Ids are taken
 * when a transaction inserts and become visible when it commits, so on PostgreSQL a later id can appear before
 * an earlier one: the reader keeps its position below the lowest id it may still miss (`floor`), remembers the
 * ids above it that it has applied, and gives up on a gap (a rolled-back transaction leaves one forever) after
 * `GAP_WAIT_MS`.
 */
export function createFeedReader(db: Kysely<Database>, apply: (tags: string[]) => void): FeedReader {
  let floor: number | undefined;
  const applied = new Set<number>();
  let gapSince: number | undefined;
  let generation = 0;

  return {
    get generation() {
      return generation;
    },
    async read(startedAt) {
      if (floor === undefined) {
        const last = await db
          .selectFrom("cache_invalidation")
          .select((eb) => eb.fn.max("id").as("id"))
          .executeTakeFirst();
        floor = Number(last?.id ?? 0);
        return;
      }
      // Everything is read before anything is marked applied: a read that fails half way leaves no row behind.
      let cursor = floor;
      const fresh: Array<{ id: number; user_id: string | null; organization_id: string | null }> = [];
      for (;;) {
        const rows = await db
          .selectFrom("cache_invalidation")
          .select(["id", "user_id", "organization_id"])
          .where("id", ">", cursor)
          .orderBy("id")
          .limit(BATCH)
          .execute();
        for (const row of rows) {
          const id = Number(row.id);
          cursor = id;
          if (!applied.has(id)) fresh.push({ ...row, id });
        }
        if (rows.length < BATCH) break;
      }
      const tags: string[] = [];
      for (const row of fresh) {
        applied.add(row.id);
        if (row.user_id) tags.push(userTag(row.user_id));
        if (row.organization_id) tags.push(organizationTag(row.organization_id));
      }
      if (tags.length > 0) {
        generation += 1;
        apply(tags);
      }
      // Move the floor over every id applied without a gap below it; wait out a gap, then skip it.
      while (applied.delete(floor + 1)) floor += 1;
      if (applied.size === 0) gapSince = undefined;
      else if (gapSince === undefined) gapSince = startedAt;
      else if (startedAt - gapSince >= GAP_WAIT_MS) {
        floor = lowest(applied) - 1;
        while (applied.delete(floor + 1)) floor += 1;
        gapSince = applied.size === 0 ? undefined : startedAt;
      }
    },
    async purge() {
      const cutoff = Math.floor(Date.now() / 1000) - RETENTION_SECONDS;
      await db.deleteFrom("cache_invalidation").where("created_at", "<", cutoff).execute();
    },
  };
}

function lowest(ids: Set<number>): number {
  let min = Number.POSITIVE_INFINITY;
  for (const id of ids) if (id < min) min = id;
  return min;
}

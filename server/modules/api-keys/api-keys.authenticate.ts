import type { MiddlewareHandler } from "hono";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { API_KEY_ERROR_CODES, ERROR_CODES } from "../../../common/error-codes";
import { organizationTag, type ReadCache } from "../../db/read-cache";
import type { Database } from "../../db/schema";
import type { ApiKeyPrincipal, AppEnv } from "../../http/app-env";
import { errorResponse } from "../../http/errors";
import type { ApiKeyReplays } from "../../http/response-cache";
import type { Logger } from "../../logger";
import { findUsableApiKeyByHash, setApiKeyLastUsed } from "./api-keys.repository";
import { hashApiKey } from "./api-keys.secret";

/** A key's `last_used_at` is written at most this often per instance: a use is not a write per request. */
const LAST_USED_EVERY_MS = 60_000;
const BEARER = /^Bearer +(\S+) *$/i;

export type ApiKeyAuthentication = {
  /** The middleware of `/api/organizations/*`. */
  authenticate: MiddlewareHandler<AppEnv>;
  /** What the response cache needs to replay a kept answer to the key it was made for. */
  replays: ApiKeyReplays;
};

/**
 * Authenticates requests to `/api/organizations/…` that carry `Authorization: Bearer <key>` (docs/decisions/0024):
 * 401 API_KEY_INVALID for a bearer token that is no live key (wrong, expired or revoked), 429 past the key's rate limit, and otherwise
 * `c.var.apiKey`, which the organization scope (organizations.scope.ts) admits or refuses route by route. A request
 * without the header is left to the session guards, untouched.
 *
 * Keys are verified from the read cache (server/db/read-cache.ts), by the hash of the secret, so a known key costs
 * no database read: the cache answers only while it has read the change feed in the last second, and a revocation
 * puts the key's organization on that feed (migration 0020), so every instance stops accepting it within a second.
 * The per-key limit is counted in process and shared through the rate-limit store in the background
 * (server/http/synced-rate-limit.ts, docs/decisions/0027). `replays` lets the response cache replay a kept answer
 * to the same key, from memory, counted against the same limit.
 */
export function createApiKeyAuthentication(deps: {
  db: Kysely<Database>;
  readCache: ReadCache;
  /**
   * The per-key limit (API_KEY_REQUESTS_PER_MINUTE) by the key's id, as far as a request goes: the synced limiter
   * (server/http/synced-rate-limit.ts), whose store's types this module's declarations must not pull in (the web
   * app's program reads them, and the Redis client's types bring Node's globals).
   */
  limiter: {
    tryTake(keyId: string): boolean;
    take(keyId: string): Promise<{ allowed: true; retryAfter: null } | { allowed: false; retryAfter: number }>;
  };
  logger: Logger;
  now?: () => number;
}): ApiKeyAuthentication {
  const now = deps.now ?? Date.now;
  const lastUsedWrites = new Map<string, number>();
  const cacheKeyOf = (keyHash: string) => `api-key#${keyHash}`;

  /** The live key of this hash from the read cache alone, or undefined. */
  function cachedKey(keyHash: string): ApiKeyPrincipal | undefined {
    const found = deps.readCache.get<ApiKeyPrincipal>(cacheKeyOf(keyHash));
    return found && (found.expiresAt === null || found.expiresAt > now()) ? found : undefined;
  }

  async function find(key: string): Promise<ApiKeyPrincipal | undefined> {
    const keyHash = hashApiKey(key);
    let found = deps.readCache.get<ApiKeyPrincipal>(cacheKeyOf(keyHash));
    if (!found) {
      const ticket = deps.readCache.ticket();
      const row = await findUsableApiKeyByHash(deps.db, keyHash);
      if (!row) return undefined;
      const expiresAt = row.expires_at === null ? null : new Date(row.expires_at).getTime();
      found = {
        id: row.id,
        name: row.name,
        prefix: row.prefix,
        organizationId: row.organization_id,
        scopes: JSON.parse(row.scopes) as string[],
        expiresAt,
      };
      const entry = { tags: [organizationTag(row.organization_id)], ...(expiresAt === null ? {} : { expiresAt }) };
      deps.readCache.set(cacheKeyOf(keyHash), found, entry, ticket);
    }
    return found.expiresAt !== null && found.expiresAt <= now() ? undefined : found;
  }

  /** Records a use when the last one recorded here is a minute old: the write, when there is one, else nothing. */
  function noteUse(keyId: string): Promise<void> | undefined {
    const at = now();
    if (at - (lastUsedWrites.get(keyId) ?? Number.NEGATIVE_INFINITY) < LAST_USED_EVERY_MS) return undefined;
    lastUsedWrites.set(keyId, at);
    return setApiKeyLastUsed(deps.db, keyId, new Date(at)).catch((error: unknown) =>
      deps.logger.warn("api keys: recording a key's last use failed", { error: String(error) }),
    );
  }

  return {
    async authenticate(c, next) {
      // Other schemes are left alone: a proxy's Basic authentication in front of a staging deployment, for one.
      const header = c.req.header("Authorization");
      if (header === undefined || !/^bearer(?: |$)/i.test(header)) return next();
      const key = BEARER.exec(header)?.[1];
      const principal = key ? await find(key) : undefined;
      if (!principal) throw DomainError.of(API_KEY_ERROR_CODES.API_KEY_INVALID);
      const decision = await deps.limiter.take(principal.id);
      if (!decision.allowed) {
        c.header("Retry-After", String(decision.retryAfter));
        return errorResponse(c, ERROR_CODES.TOO_MANY_REQUESTS, "Too many requests. Please try again later.");
      }
      await noteUse(principal.id);
      c.set("apiKey", principal);
      await next();
    },
    replays: {
      identityOf(authorization) {
        const key = BEARER.exec(authorization)?.[1];
        return key === undefined ? undefined : hashApiKey(key);
      },
      admit(identity) {
        const principal = cachedKey(identity);
        if (!principal || !deps.limiter.tryTake(principal.id)) return false;
        // The write, once a minute, is not waited for: the replay has its answer.
        void noteUse(principal.id);
        return true;
      },
    },
  };
}

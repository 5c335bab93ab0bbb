import type { MiddlewareHandler } from "hono";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { API_KEY_ERROR_CODES, ERROR_CODES } from "../../../common/error-codes";
import { organizationTag, type ReadCache } from "../../db/read-cache";
import type { Database } from "../../db/schema";
import type { ApiKeyPrincipal, AppEnv } from "../../http/app-env";
import { errorResponse } from "../../http/errors";
import type { Logger } from "../../logger";
import { findUsableApiKeyByHash, setApiKeyLastUsed } from "./api-keys.repository";
import { hashApiKey } from "./api-keys.secret";

/** A key's `last_used_at` is written at most this often per instance: a use is not a write per request. */
const LAST_USED_EVERY_MS = 60_000;
const BEARER = /^Bearer +(\S+) *$/i;

type CachedKey = ApiKeyPrincipal & { expiresAt: number | null };

/**
 * Authenticates requests to `/api/organizations/…` that carry `Authorization: Bearer <key>` (docs/decisions/0024):
 * 401 API_KEY_INVALID for a bearer token that is no live key (wrong, expired or revoked), 429 past the key's rate limit, and otherwise
 * `c.var.apiKey`, which the organization scope (organizations.scope.ts) admits or refuses route by route. A request
 * without the header is left to the session guards, untouched.
 *
 * Keys are verified from the read cache (server/db/read-cache.ts), by the hash of the secret, so a known key costs
 * no database read: the cache answers only while it has read the change feed in the last second, and a revocation
 * puts the key's organization on that feed (migration 0020), so every instance stops accepting it within a second.
 * The per-key counter lives in the shared rate-limit store (the database table, or Redis), like every other limit.
 */
export function authenticateApiKeys(deps: {
  db: Kysely<Database>;
  readCache: ReadCache;
  /** The shared rate-limit store (server/http/rate-limit-store.ts), as far as counting a request goes. */
  rateLimitStore: {
    consume(
      key: string,
      rule: { window: number; max: number },
    ): Promise<{ allowed: boolean; retryAfter: number | null }>;
  };
  requestsPerMinute: number;
  logger: Logger;
  now?: () => number;
}): MiddlewareHandler<AppEnv> {
  const now = deps.now ?? Date.now;
  const lastUsedWrites = new Map<string, number>();

  async function find(key: string): Promise<ApiKeyPrincipal | undefined> {
    const keyHash = await hashApiKey(key);
    const cacheKey = `api-key#${keyHash}`;
    let found = deps.readCache.get<CachedKey>(cacheKey);
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
      deps.readCache.set(cacheKey, found, entry, ticket);
    }
    if (found.expiresAt !== null && found.expiresAt <= now()) return undefined;
    const { expiresAt: _expiresAt, ...principal } = found;
    return principal;
  }

  async function noteUse(keyId: string): Promise<void> {
    const at = now();
    if (at - (lastUsedWrites.get(keyId) ?? Number.NEGATIVE_INFINITY) < LAST_USED_EVERY_MS) return;
    lastUsedWrites.set(keyId, at);
    await setApiKeyLastUsed(deps.db, keyId, new Date(at)).catch((error: unknown) =>
      deps.logger.warn("api keys: recording a key's last use failed", { error: String(error) }),
    );
  }

  return async (c, next) => {
    // Other schemes are left alone: a proxy's Basic authentication in front of a staging deployment, for one.
    const header = c.req.header("Authorization");
    if (header === undefined || !/^bearer(?: |$)/i.test(header)) return next();
    const key = BEARER.exec(header)?.[1];
    const principal = key ? await find(key) : undefined;
    if (!principal) throw DomainError.of(API_KEY_ERROR_CODES.API_KEY_INVALID);
    const decision = await deps.rateLimitStore.consume(`app:api-key:${principal.id}`, {
      window: 60,
      max: deps.requestsPerMinute,
    });
    if (!decision.allowed) {
      c.header("Retry-After", String(decision.retryAfter ?? 60));
      return errorResponse(c, ERROR_CODES.TOO_MANY_REQUESTS, "Too many requests. Please try again later.");
    }
    await noteUse(principal.id);
    c.set("apiKey", principal);
    await next();
  };
}

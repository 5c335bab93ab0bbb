import type { ReadCache } from "../db/read-cache";

/** Hono's typed context for the whole app: what middleware hands to the handlers after it. */
export type AppEnv = {
  Variables: {
    clientIp: string | undefined;
    /** Set by a handler whose answer may be replayed to the same session (server/http/response-cache.ts). */
    replayable?: { organizationIds: readonly string[] };
    /** The organization API key the request authenticated with (`Authorization: Bearer`), when it did. */
    apiKey?: ApiKeyPrincipal;
    /** Set for a read (GET, HEAD) only: the read cache its membership check may be answered from (ADR 0036). */
    readCache?: ReadCache;
  };
};

/**
 * An organization API key that authenticated a request (server/modules/api-keys): it acts for its organization on
 * that organization's routes only, within its scopes, and is never a user session.
 */
export type ApiKeyPrincipal = {
  id: string;
  name: string;
  /** The key's first characters, as lists show it (never the secret). */
  prefix: string;
  organizationId: string;
  scopes: readonly string[];
  /** Ms since the epoch when the key expires, or null; an answer kept for the key is not replayed past it. */
  expiresAt: number | null;
};

/** The signed-in user and session of a request, as far as the app's own routes need them. */
export type AppSession = {
  user: { id: string; email: string; name: string; role?: string | null };
  session: { id: string; activeOrganizationId?: string | null; impersonatedBy?: string | null };
};

/**
 * The signed-in user of a request, or null: what routes need of the auth instance, passed to them as a
 * function so no module depends on server/auth (app.ts binds it to better-auth's getSession).
 */
export type GetSession = (headers: Headers) => Promise<AppSession | null>;

/**
 * Throws 403 FRESH_AUTHENTICATION_REQUIRED unless the session signed in or re-checked in the last 10 minutes: what a
 * sensitive route needs of server/auth/fresh-authentication.ts, bound by app.ts as `GetSession` is.
 */
export type AssertFreshSession = (session: AppSession) => Promise<void>;

/** The context of a route that a session guard let through. */
export type SessionEnv = AppEnv & { Variables: AppEnv["Variables"] & { session: AppSession } };

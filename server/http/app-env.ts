/** Hono's typed context for the whole app: what middleware hands to the handlers after it. */
export type AppEnv = {
  Variables: {
    clientIp: string | undefined;
    /** Set by a handler whose answer may be replayed to the same session (server/http/response-cache.ts). */
    replayable?: { organizationIds: readonly string[] };
  };
};

/** The signed-in user and session of a request, as far as the app's own routes need them. */
export type AppSession = {
  user: { id: string; email: string; name: string; role?: string | null };
  session: { activeOrganizationId?: string | null; impersonatedBy?: string | null };
};

/**
 * The signed-in user of a request, or null: what routes need of the auth instance, passed to them as a
 * function so no module depends on server/auth (app.ts binds it to better-auth's getSession).
 */
export type GetSession = (headers: Headers) => Promise<AppSession | null>;

/** The context of a route that a session guard let through. */
export type SessionEnv = AppEnv & { Variables: AppEnv["Variables"] & { session: AppSession } };

/** Hono's typed context for the whole app: what middleware hands to the handlers after it. */
export type AppEnv = {
  Variables: {
    clientIp: string | undefined;
  };
};

/**
 * The signed-in user of a request, or null: what routes need of the auth instance, passed to them as a
 * function so no module depends on server/auth (app.ts binds it to better-auth's getSession).
 */
export type GetSession = (headers: Headers) => Promise<{ user: { id: string }; session: { activeOrganizationId?: string | null } } | null>;

import type { Context } from "hono";
import { getCookies } from "better-auth/cookies";
import { userTag, type ReadCache } from "../db/read-cache";
import type { AppEnv, AppSession } from "../http/app-env";
import { readAuthCookies, replayable, type AuthCookieNames, type SessionOf } from "../http/response-cache";
import type { Auth } from "./auth";

/** better-auth's reads that every page makes: their answers may be replayed (server/http/response-cache.ts). */
const REPLAYABLE_PATHS = new Set(["/api/auth/get-session", "/api/auth/organization/list", "/api/auth/organization/get-active-member"]);

export type SessionReads = {
  /** better-auth's cookie names, as its options make them. */
  cookieNames: AuthCookieNames;
  /** The signed-in user and session of a request, or null: the app's own routes' session check, through the read cache. */
  getSession(headers: Headers): Promise<AppSession | null>;
  /** Whose session a request carries and until when an answer about it may be replayed (the response cache's question). */
  sessionOf: SessionOf;
  /** Runs better-auth for a request and marks its answer replayable when it is one of the reads above. */
  answer(c: Context<AppEnv>, passOn: () => Promise<Response>): Promise<Response>;
};

/**
 * Sessions through the read cache (server/db/read-cache.ts, docs/decisions/0012). better-auth reads a session and its
 * user from the database for every call; here a session is read once and kept until its user or any of its sessions
 * changes, it expires, or better-auth would refresh it, so that the refresh still happens in better-auth.
 */
export function createSessionReads(auth: Auth, cache: ReadCache): SessionReads {
  const { options } = auth;
  const cookies = getCookies(options);
  const cookieNames: AuthCookieNames = {
    sessionToken: cookies.sessionToken.name,
    sessionData: cookies.sessionData.name,
    dontRemember: cookies.dontRememberToken.name,
  };
  const expiresInMs = options.session.expiresIn * 1000;
  const updateAgeMs = options.session.updateAge * 1000;

  /** Until when `session` may be replayed: not past its expiry, nor the moment better-auth would refresh it. */
  const keepUntil = (session: { expiresAt: string | Date }) => {
    const expiresAt = new Date(session.expiresAt).getTime();
    return Math.min(expiresAt, expiresAt - expiresInMs + updateAgeMs);
  };

  async function getSession(headers: Headers): Promise<AppSession | null> {
    const found = readAuthCookies(headers.get("cookie"), cookieNames);
    // The cookie cache and "don't remember me" change what better-auth answers: those requests are not kept.
    if (!found.sessionToken || found.sessionData !== undefined || found.dontRemember !== undefined) return auth.api.getSession({ headers });
    return cache.remember(`session#${found.sessionToken}`, async () => {
      const { headers: answered, response } = await auth.api.getSession({ headers, returnHeaders: true });
      // A refreshed session sets a cookie: that answer is better-auth's alone.
      if (!response || answered.has("set-cookie")) return { value: response };
      return { value: response, cache: { tags: [userTag(response.user.id)], expiresAt: keepUntil(response.session) } };
    });
  }

  async function answer(c: Context<AppEnv>, passOn: () => Promise<Response>): Promise<Response> {
    const response = await passOn();
    if (c.req.method !== "GET" || !REPLAYABLE_PATHS.has(c.req.path) || response.status !== 200) return response;
    // The organizations an answer shows: an organization/list's, a member's.
    const shown = (await response.clone().json()) as unknown;
    const organizationIds = Array.isArray(shown)
      ? shown.map((organization: { id: string }) => organization.id)
      : shown && typeof shown === "object" && "organizationId" in shown
        ? [String(shown.organizationId)]
        : [];
    replayable(c, organizationIds);
    return response;
  }

  return {
    cookieNames,
    getSession,
    answer,
    async sessionOf(headers) {
      const session = await getSession(headers);
      return session && { userId: session.user.id, keepUntil: keepUntil(session.session) };
    },
  };
}

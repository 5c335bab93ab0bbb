import type { Context } from "hono";
import { getCookies } from "better-auth/cookies";
import type { AppEnv } from "../http/app-env";
import { replayable, type AuthCookieNames, type SessionOf } from "../http/response-cache";
import type { Auth } from "./auth";

/** better-auth's reads that every page makes: their answers may be replayed (server/http/response-cache.ts). */
const REPLAYABLE_PATHS = new Set([
  "/api/auth/get-session",
  "/api/auth/organization/list",
  "/api/auth/organization/get-active-member",
]);

export type SessionReads = {
  /** better-auth's cookie names, as its options make them. */
  cookieNames: AuthCookieNames;
  /** Whose session a request carries and until when an answer about it may be replayed (the response cache's question). */
  sessionOf: SessionOf;
  /** Runs better-auth for a request and marks its answer replayable when it is one of the reads above. */
  answer(c: Context<AppEnv>, passOn: () => Promise<Response>): Promise<Response>;
};

/** What the response cache needs to know of better-auth's sessions (docs/decisions/0012). */
export function createSessionReads(auth: Auth): SessionReads {
  const { options } = auth;
  const cookies = getCookies(options);
  const expiresInMs = options.session.expiresIn * 1000;
  const updateAgeMs = options.session.updateAge * 1000;

  return {
    cookieNames: {
      sessionToken: cookies.sessionToken.name,
      sessionData: cookies.sessionData.name,
      dontRemember: cookies.dontRememberToken.name,
    },
    async sessionOf(headers) {
      const found = await auth.api.getSession({ headers, returnHeaders: true });
      // A session better-auth refreshed (it set a cookie) is not one to replay answers about.
      if (!found.response || found.headers.has("set-cookie")) return null;
      // Not past the session's expiry, nor the moment better-auth would refresh it: the refresh stays better-auth's.
      const expiresAt = new Date(found.response.session.expiresAt).getTime();
      return { userId: found.response.user.id, keepUntil: Math.min(expiresAt, expiresAt - expiresInMs + updateAgeMs) };
    },
    async answer(c, passOn) {
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
    },
  };
}

import type { Context } from "hono";
import { getCookies } from "better-auth/cookies";
import type { AppEnv } from "../http/app-env";
import { replayable, type AuthCookieNames, type SessionOf } from "../http/response-cache";
import type { Auth } from "./auth";

type Shown = { id?: unknown; organizationId?: unknown; members?: Array<{ organizationId?: unknown }> };

/**
 * better-auth's reads whose answers may be replayed (server/http/response-cache.ts), each with the organizations an
 * answer shows, whose changes make it stale; undefined when they cannot be told, and then it is not replayed. Every
 * page reads the first three; an organization's backend pages through the last two.
 */
const REPLAYABLE_READS: Record<string, (shown: unknown, query: URLSearchParams) => string[] | undefined> = {
  "/api/auth/get-session": () => [],
  "/api/auth/organization/list": (shown) =>
    Array.isArray(shown) ? shown.map((organization: Shown) => String(organization.id)) : [],
  "/api/auth/organization/get-active-member": (shown) => idsOf((shown as Shown | null)?.organizationId) ?? [],
  // A page past the last member shows none: its organization is then the one the query names, if it names one.
  "/api/auth/organization/list-members": (shown, query) =>
    idsOf((shown as Shown | null)?.members?.[0]?.organizationId ?? query.get("organizationId")),
  "/api/auth/organization/get-full-organization": (shown) => idsOf((shown as Shown | null)?.id),
};

const idsOf = (id: unknown): string[] | undefined => (typeof id === "string" ? [id] : undefined);

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
      const organizationsOf = REPLAYABLE_READS[c.req.path];
      if (c.req.method !== "GET" || !organizationsOf || response.status !== 200) return response;
      const organizationIds = organizationsOf(await response.clone().json(), new URL(c.req.url).searchParams);
      if (organizationIds) replayable(c, organizationIds);
      return response;
    },
  };
}

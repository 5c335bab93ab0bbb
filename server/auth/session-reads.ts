import type { Context } from "hono";
import { getCookies } from "better-auth/cookies";
import { userTag, type ReadCache } from "../db/read-cache";
import type { AppEnv, GetSession } from "../http/app-env";
import { readAuthCookies, replayable, type AuthCookieNames, type SessionOf } from "../http/response-cache";
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
  /**
   * The session of a read (GET, HEAD) for the app's own routes: better-auth's answer, kept in the read cache under the
   * raw session cookie, for its user, until the session expires or better-auth would refresh it (ADR 0032).
   */
  sessionOfRead: GetSession;
  /** Runs better-auth for a request and marks its answer replayable when it is one of the reads above. */
  answer(c: Context<AppEnv>, passOn: () => Promise<Response>): Promise<Response>;
};

type Session = NonNullable<Awaited<ReturnType<Auth["api"]["getSession"]>>>;
/** A session as better-auth answered it, and until when that answer may be kept; `keepUntil` undefined: not at all. */
type SessionRead = { session: Session | null; keepUntil?: number };

/** What the response cache and the app's read routes need to know of better-auth's sessions (docs/decisions/0012). */
export function createSessionReads(auth: Auth, cache: ReadCache): SessionReads {
  const { options } = auth;
  const cookies = getCookies(options);
  const cookieNames = {
    sessionToken: cookies.sessionToken.name,
    sessionData: cookies.sessionData.name,
    dontRemember: cookies.dontRememberToken.name,
  };
  const expiresInMs = options.session.expiresIn * 1000;
  const updateAgeMs = options.session.updateAge * 1000;

  async function readSession(headers: Headers): Promise<SessionRead> {
    const found = await auth.api.getSession({ headers, returnHeaders: true });
    // A session better-auth refreshed (it set a cookie) is not one to keep.
    if (!found.response || found.headers.has("set-cookie")) return { session: found.response };
    // Not past the session's expiry, nor the moment better-auth would refresh it: the refresh stays better-auth's.
    const expiresAt = new Date(found.response.session.expiresAt).getTime();
    return { session: found.response, keepUntil: Math.min(expiresAt, expiresAt - expiresInMs + updateAgeMs) };
  }

  /**
   * A read's session, from the read cache when it holds it. Only a request whose session rests on its session cookie
   * alone is kept (as the response cache keys its answers), under that cookie's raw value; an unknown token is
   * asked of the database every time.
   */
  async function keptSession(headers: Headers): Promise<SessionRead> {
    const found = readAuthCookies(headers.get("cookie"), cookieNames);
    const token = found.sessionData === undefined && found.dontRemember === undefined ? found.sessionToken : undefined;
    if (!token) return readSession(headers);
    const key = `session#${token}`;
    const kept = cache.get<SessionRead>(key);
    if (kept) return kept;
    const ticket = cache.ticket();
    const read = await readSession(headers);
    if (read.session && read.keepUntil !== undefined)
      cache.set(key, read, { tags: [userTag(read.session.user.id)], expiresAt: read.keepUntil, bytes: 1024 }, ticket);
    return read;
  }

  return {
    cookieNames,
    async sessionOf(headers) {
      const { session, keepUntil } = await keptSession(headers);
      return session && keepUntil !== undefined ? { userId: session.user.id, keepUntil } : null;
    },
    async sessionOfRead(headers) {
      return (await keptSession(headers)).session;
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

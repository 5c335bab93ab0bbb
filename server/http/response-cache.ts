import type { Context, MiddlewareHandler } from "hono";
import { LRUCache } from "lru-cache";
import { organizationTag, userTag, type ReadCache } from "../db/read-cache";
import { currentRequestScope } from "../request-scope";
import { REQUEST_ID_HEADER } from "./request-id";
import type { AppEnv } from "./app-env";

/**
 * Whole answers to the reads every page makes (get-session, the user's organizations and membership, the members
 * list), replayed byte for byte to the same session until something they show changes (docs/decisions/0012). A
 * handler opts in with `replayable(c, organizationIds)`; `keep`, the outermost middleware, then stores the final
 * answer (security headers and compression included) in the read cache, tagged with the session's user and those
 * organizations; `answer`, in front of the app, replays it without running any middleware. Only a 200 that sets no
 * cookie is kept, only for a request whose answer depends on no cookie but the session token, and only from the
 * second time the same request is read: an answer read once (a sign-in followed by one look, a crawler, a scan of
 * tokens) never takes the place of one that is read again and again.
 *
 * A request with `Authorization: Bearer <key>` (an organization API key) is answered for the key, whatever cookie
 * comes with it (docs/decisions/0027): its answer is kept under the key's hash, so it is replayed only to the same
 * key, on the same path, which that key was admitted to; tagged with the key's organization, whose change feed
 * also carries the key's revocation; never past the key's expiry; and a replay is counted against the key's rate
 * limit, or not made (`ApiKeyReplays.admit`).
 */
export type ResponseCache = {
  /** The kept answer to this request, or undefined: synchronous, so a hit costs no promise and no middleware. */
  answer(request: Request): Response | undefined;
  keep: MiddlewareHandler<AppEnv>;
};

/** The names of better-auth's cookies (better-auth's `getCookies`; __Secure- prefixed on https). */
export type AuthCookieNames = { sessionToken: string; sessionData: string; dontRemember: string };

/**
 * What a kept answer to an organization API key needs of the api-keys module, from memory only: the identity its
 * answers are kept under (the key's hash, never the key), and whether one may be replayed to it now.
 */
export type ApiKeyReplays = {
  /** The identity of the key an `Authorization: Bearer …` header carries; undefined when it carries none. */
  identityOf(authorization: string): string | undefined;
  /**
   * Whether a kept answer may be replayed to the key of this identity now: a live key the read cache knows, whose
   * limit admits the request from memory (then it is counted). When not, the app answers the request.
   */
  admit(identity: string): boolean;
};

/** The session of a request as far as a kept answer depends on it: whose it is, and until when it may be replayed. */
export type SessionOf = (headers: Headers) => Promise<{ userId: string; keepUntil: number } | null>;

/** A kept answer, and the route that answered it (a replay is counted in the metrics under it). */
type Snapshot = { status: number; headers: Record<string, string>; body: Uint8Array; route: string | undefined };

/** How many requests read once are remembered, waiting for a second read that gets them kept. */
const SEEN_ONCE_MAX = 50_000;

/**
 * What the registry of requests read once remembers of a cache key: its 30-bit FNV-1a hash, an integer V8 stores in
 * place, instead of the key (a path, a session token and an encoding: about 200 bytes kept until evicted). Every first
 * read of a distinct page added one, and 50,000 of them held about 30 MB of the heap. Two keys may share a hash: then
 * one is kept from its first read, which anyone can get by reading it twice anyway.
 */
function fingerprint(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  return hash & 0x3fffffff;
}
const BEARER_SCHEME = /^bearer(?: |$)/i;

/** Marks the answer being built as one that may be replayed to the same session; it shows these organizations. */
export function replayable<E extends AppEnv>(c: Context<E>, organizationIds: readonly string[]): void {
  (c as unknown as Context<AppEnv>).set("replayable", { organizationIds });
}

export function createResponseCache(deps: {
  cache: ReadCache;
  cookieNames: AuthCookieNames;
  sessionOf: SessionOf;
  apiKeys: ApiKeyReplays;
}): ResponseCache {
  const { cache, cookieNames } = deps;
  const seenOnce = new LRUCache<number, true>({ max: SEEN_ONCE_MAX });

  /**
   * The cache key of a GET, or undefined when its answer may depend on more than the path, the caller (the session,
   * or the API key) and the encoding. A session token has no colon, so no key's identity can pass for one.
   */
  function keyOf(request: Request): { key: string; hasSession: boolean; apiKey?: string } | undefined {
    if (request.method !== "GET") return undefined;
    const { url } = request;
    const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    const encoding = request.headers.get("accept-encoding") ?? "";
    const authorization = request.headers.get("authorization");
    if (authorization !== null && BEARER_SCHEME.test(authorization)) {
      const apiKey = deps.apiKeys.identityOf(authorization);
      return apiKey === undefined
        ? undefined
        : { key: `response#${path}#api-key:${apiKey}#${encoding}`, hasSession: false, apiKey };
    }
    const cookies = readAuthCookies(request.headers.get("cookie"), cookieNames);
    if (cookies.sessionData !== undefined || cookies.dontRemember !== undefined || cookies.sessionToken === false)
      return undefined;
    return {
      key: `response#${path}#${cookies.sessionToken ?? ""}#${encoding}`,
      hasSession: cookies.sessionToken !== undefined,
    };
  }

  return {
    answer(request) {
      const found = keyOf(request);
      const hit = found && cache.get<Snapshot>(found.key);
      if (!hit || (found.apiKey !== undefined && !deps.apiKeys.admit(found.apiKey))) return undefined;
      // A replay carries its own request's id, and is counted under the route of the answer it replays. The id
      // goes first: V8 copies the kept headers behind it five times faster than it adds a key after them.
      const scope = currentRequestScope();
      if (!scope) return new Response(hit.body, { status: hit.status, headers: hit.headers });
      if (hit.route !== undefined) scope.route = hit.route;
      return new Response(hit.body, {
        status: hit.status,
        headers: { [REQUEST_ID_HEADER]: scope.requestId, ...hit.headers },
      });
    },
    async keep(c, next) {
      const found = keyOf(c.req.raw);
      if (!found) return next();
      const ticket = cache.ticket();
      await next();
      const marked = c.get("replayable");
      if (!marked || c.res.status !== 200 || c.res.headers.has("set-cookie")) return;
      const seen = fingerprint(found.key);
      if (!seenOnce.delete(seen)) {
        seenOnce.set(seen, true);
        return;
      }
      const session = found.hasSession ? await deps.sessionOf(c.req.raw.headers) : null;
      if (found.hasSession && !session) return;
      // The key the app admitted for this request (the bearer token's: the api-keys middleware set it).
      const apiKey = c.get("apiKey");
      if (found.apiKey !== undefined && !apiKey) return;
      const body = new Uint8Array(await c.res.clone().arrayBuffer());
      const snapshot: Snapshot = {
        status: c.res.status,
        headers: Object.fromEntries(c.res.headers),
        body,
        route: currentRequestScope()?.route,
      };
      const organizationIds = new Set([...marked.organizationIds, ...(apiKey ? [apiKey.organizationId] : [])]);
      const tags = [...(session ? [userTag(session.userId)] : []), ...[...organizationIds].map(organizationTag)];
      const expiresAt = session?.keepUntil ?? apiKey?.expiresAt ?? undefined;
      cache.set(found.key, snapshot, { tags, expiresAt, bytes: body.byteLength }, ticket);
    },
  };
}

/** A signed session token as better-auth sets it (token, dot, signature; URL-encoded base64): nothing to unquote or decode differently. */
const PLAIN_COOKIE_VALUE = /^[\w.%+/=-]+$/;

/**
 * The values of better-auth's cookies in a Cookie header, raw (better-auth decodes and verifies them itself). The
 * first of repeated names counts, as in better-auth's own parser; a session token in any other shape is reported as
 * unusable (`false`), so that nothing is kept under a value better-auth might read differently.
 */
export function readAuthCookies(
  header: string | null,
  names: AuthCookieNames,
): { sessionToken?: string | false; sessionData?: string; dontRemember?: string } {
  const found: { sessionToken?: string | false; sessionData?: string; dontRemember?: string } = {};
  if (!header) return found;
  for (const pair of header.split(";")) {
    const equals = pair.indexOf("=");
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1).trim();
    if (name === names.sessionToken) found.sessionToken ??= PLAIN_COOKIE_VALUE.test(value) ? value : false;
    else if (name === names.sessionData || name.startsWith(`${names.sessionData}.`)) found.sessionData ??= value;
    else if (name === names.dontRemember) found.dontRemember ??= value;
  }
  return found;
}

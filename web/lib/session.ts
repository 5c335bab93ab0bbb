import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { SESSION_ENDED_HEADER } from "../../common/ban-message";
import type { NoticeCode } from "./address-messages";
import { toResponseError } from "./api-error";
import type { Session } from "./auth-client";

/**
 * Reads better-auth's GET /api/auth/get-session with a plain fetch: every page asks it first, and the
 * better-auth client (about 14 KB gzipped) would otherwise load before anything can render. Same answer,
 * same errors (an ApiError with the friendly message) as `authClient.getSession()`.
 */
export async function fetchSession(): Promise<Session | null> {
  const response = await fetch("/api/auth/get-session", {
    credentials: "include",
    headers: { accept: "application/json" },
  });
  if (!response.ok) throw await toResponseError(response);
  const body: unknown = await response.json().catch(() => null);
  // Kept until a session is found again: better-auth drops the cookie with this answer, so later ones cannot tell.
  signedOutByBan = body === null && (signedOutByBan || response.headers.get(SESSION_ENDED_HEADER) === "banned");
  // better-auth answers `null` without a session; dates arrive as ISO strings, as the better-auth client would parse them.
  return body === null ? null : reviveDates(body as Session);
}

/** Whether the session this tab held was signed out by a ban (the server says so once, with the answer without it). */
let signedOutByBan = false;

/** Why this tab has no session any more, when the server said: the sign-in page's notice for it. */
export function sessionEndNotice(): NoticeCode | undefined {
  return signedOutByBan ? "account-banned" : undefined;
}

/** better-auth's client turns ISO date strings into Dates; the session's readers expect Dates. */
function reviveDates<T>(value: T): T {
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value))
    return new Date(value) as T;
  if (Array.isArray(value)) return value.map(reviveDates) as T;
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, reviveDates(item)])) as T;
  return value;
}

/** The signed-in session, or null. One cache entry the whole app reads and refreshes. */
export const sessionQuery = queryOptions({
  queryKey: ["session"],
  queryFn: fetchSession,
  staleTime: 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}

/** After sign-in, sign-out, verification, profile changes or deletion: the spec refreshes the session then. */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return async (options: { clearEverything?: boolean } = {}) => {
    if (options.clearEverything) queryClient.clear();
    await queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
    await queryClient.fetchQuery(sessionQuery);
  };
}

/** Only same-app paths may be redirect targets; anything else goes home. */
export function safeRedirect(target: string | undefined): string {
  return target && target.startsWith("/") && !target.startsWith("//") && !target.startsWith("/\\") ? target : "/";
}

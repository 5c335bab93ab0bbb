import { loadErrorSentences } from "./api-error";
import type { betterAuthClient } from "./better-auth-client";

type AuthClient = typeof betterAuthClient;

let loading: Promise<AuthClient> | undefined;
// The error sentences load with the client, so `unwrap` can word any error of its results (see ./api-error.ts).
const load = () =>
  (loading ??= Promise.all([import("./better-auth-client"), loadErrorSentences()]).then(
    ([module]) => module.betterAuthClient,
  ));

/**
 * A stand-in for the client at `path` (`["organization", "list"]`): reading a property goes one step deeper,
 * calling it loads the real client and calls the same method there. Only calls are forwarded, and every
 * method of better-auth's client returns a promise, so callers cannot tell the difference.
 */
function lazyMember(path: readonly string[]): unknown {
  return new Proxy(function member() {}, {
    // `then` must stay undefined, or awaiting a member would treat it as a promise.
    get: (_target, key) => (key === "then" || typeof key === "symbol" ? undefined : lazyMember([...path, key])),
    apply: async (_target, _this, args: unknown[]) => {
      let owner: unknown;
      let member: unknown = await load();
      for (const key of path) [owner, member] = [member, Reflect.get(member as object, key)];
      return Reflect.apply(member as (...args: unknown[]) => unknown, owner, args);
    },
  });
}

/**
 * The one better-auth client of the web app; it calls /api/auth on the page's own origin. The client and its
 * plugins (about 16 KB gzipped) load on the first call, not with the app: a signed-out first page never needs
 * them before the person acts, and the session is read with a plain fetch (./session.ts).
 */
export const authClient = lazyMember([]) as AuthClient;

export type Session = AuthClient["$Infer"]["Session"];
export type SessionUser = Session["user"];

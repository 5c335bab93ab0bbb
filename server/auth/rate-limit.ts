import type { BetterAuthOptions } from "better-auth";
import { ERROR_CODES } from "../../common/error-codes";
import type { RateLimitStore } from "../http/rate-limit-store";

/** Rate limits per client address: tighter on the endpoints that guess passwords or send mail. */
export const RATE_LIMIT_RULES = {
  default: { window: 60, max: 300 },
  "/sign-in/*": { window: 60, max: 10 },
  "/sign-up/email": { window: 60, max: 10 },
  "/change-password": { window: 60, max: 10 },
  "/request-password-reset": { window: 300, max: 5 },
  "/send-verification-email": { window: 300, max: 5 },
  // Each accepted request mails a link to an address the caller chooses.
  "/change-email": { window: 300, max: 3 },
  "/is-username-available": { window: 60, max: 60 },
  // Each sign-in attempt ends at its fifth wrong code; this bounds the guessing across attempts and accounts.
  "/two-factor/*": { window: 60, max: 10 },
  // Passkey sign-in: each options call stores a challenge; the sign-in page asks for one on every visit (autofill).
  "/passkey/generate-authenticate-options": { window: 60, max: 30 },
  "/passkey/verify-authentication": { window: 60, max: 10 },
} as const;

/** The rule that counts requests to `path` (better-auth's path, under /api/auth): a custom rule's, or `default`. */
export function rateLimitRuleOf(path: string): keyof typeof RATE_LIMIT_RULES {
  for (const rule of Object.keys(RATE_LIMIT_RULES) as Array<keyof typeof RATE_LIMIT_RULES>) {
    if (rule === "default") continue;
    if (rule.endsWith("/*") ? path.startsWith(rule.slice(0, -1)) : path === rule) return rule;
  }
  return "default";
}

/** better-auth's rate-limit options: the rules above, counted in `store` (the database table or Redis, failing open). */
export function rateLimit(store: RateLimitStore) {
  const { default: defaults, ...customRules } = RATE_LIMIT_RULES;
  return {
    enabled: true,
    window: defaults.window,
    max: defaults.max,
    // The counters go through `customStorage`, which takes precedence; "database" keeps the `rateLimit`
    // table in better-auth's schema, which the database store uses.
    storage: "database",
    customRules,
    customStorage: store,
  } satisfies BetterAuthOptions["rateLimit"];
}

/**
 * better-auth answers a limited request itself, before any plugin or hook runs, with only its own `X-Retry-After`
 * header and a body without a code. This gives that answer the standard `Retry-After` header (seconds) and the
 * app's TOO_MANY_REQUESTS code, so clients read the wait and branch on the code as for every other error.
 */
export async function withRetryAfter(response: Response): Promise<Response> {
  if (response.status !== 429) return response;
  const headers = new Headers(response.headers);
  const seconds = headers.get("X-Retry-After");
  if (seconds && !headers.has("Retry-After")) headers.set("Retry-After", seconds);
  const body = (await response
    .clone()
    .json()
    .catch(() => ({}))) as Record<string, unknown>;
  headers.delete("content-length");
  return new Response(JSON.stringify({ code: ERROR_CODES.TOO_MANY_REQUESTS, ...body }), {
    status: 429,
    statusText: response.statusText,
    headers,
  });
}

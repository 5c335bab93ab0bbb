import type { MiddlewareHandler } from "hono";
import { ERROR_CODES } from "../../../common/error-codes";
import type { RateLimitStore } from "../rate-limit-store";
import type { AppEnv, GetSession } from "../app-env";
import { errorResponse } from "../errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

type Window = { window: number; max: number };

/** A rate-limit rule of the app's own writes: how many a user, and a client address, may make per window. */
export type WriteRateLimitRule = {
  /** The rule's name: part of its counters' keys, and the `rule` label of atrium_rate_limit_rejections_total. */
  name: string;
  /** The route patterns it counts (`:name` matches one path segment); the first rule that matches applies. */
  routes: readonly string[] | "*";
  perUser: Window;
  perAddress: Window;
};

/**
 * The app's own writes (outside /api/auth, whose limits are better-auth's: server/auth/rate-limit.ts). Calls to the
 * billing provider are tight (`billingCallsPerMinute` a user, BILLING_CALLS_PER_MINUTE, 10 by default): each costs a
 * provider request (a portal session, a checkout, a subscription change, a refund, a reconciliation's reads). Every
 * other write is bounded generously, so that a script cannot make hundreds a second (usage reports, mailbox clears).
 */
export function writeRateLimitRules(options: { billingCallsPerMinute: number }): WriteRateLimitRule[] {
  const { billingCallsPerMinute } = options;
  return [
    {
      name: "app:billing-provider",
      routes: [
        "/api/organizations/:organizationId/billing/checkout",
        "/api/organizations/:organizationId/billing/subscription",
        "/api/organizations/:organizationId/billing/portal",
        "/api/admin/billing/organizations/:organizationId/refunds",
        "/api/admin/billing/organizations/:organizationId/reconcile",
      ],
      perUser: { window: 60, max: billingCallsPerMinute },
      perAddress: { window: 60, max: billingCallsPerMinute * 3 },
    },
    // The re-check of a password or an authenticator code: as tight as better-auth's sign-in, so it is no faster
    // a way to guess a password (server/auth/reauthenticate.ts).
    {
      name: "app:reauthenticate",
      routes: ["/api/account/reauthenticate"],
      perUser: { window: 60, max: 5 },
      perAddress: { window: 60, max: 15 },
    },
    { name: "app:default", routes: "*", perUser: { window: 60, max: 60 }, perAddress: { window: 60, max: 300 } },
  ];
}

function routeMatcher(pattern: string): RegExp {
  const escaped = pattern
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${escaped}/?$`);
}

/**
 * Rate limits on every write outside `isExempt`, per client address (before anything else is read) and per signed-in
 * user, counted in the same store as better-auth's limits (the database table, or Redis when REDIS_URL is set, so
 * every instance and worker shares the counts; it fails open: server/http/rate-limit-store.ts). A refused write
 * answers 429 TOO_MANY_REQUESTS with `Retry-After` (seconds), like better-auth's, and is counted by `onRejected`.
 * The session is read through `getSession`, which the app memoizes per request, so the route's own guard reuses it.
 */
export function limitWrites(deps: {
  store: RateLimitStore;
  rules: readonly WriteRateLimitRule[];
  getSession: GetSession;
  isExempt(path: string): boolean;
  onRejected(rule: string): void;
}): MiddlewareHandler<AppEnv> {
  const matchersOf = (rule: WriteRateLimitRule) => (rule.routes === "*" ? null : rule.routes.map(routeMatcher));
  const rules = deps.rules.map((rule) => ({ ...rule, matchers: matchersOf(rule) }));
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || deps.isExempt(c.req.path)) return next();
    const path = c.req.path;
    const rule = rules.find(({ matchers }) => matchers === null || matchers.some((matcher) => matcher.test(path)));
    if (!rule) return next();
    const refuse = (retryAfter: number | null) => {
      deps.onRejected(rule.name);
      c.header("Retry-After", String(retryAfter ?? rule.perUser.window));
      return errorResponse(c, ERROR_CODES.TOO_MANY_REQUESTS, "Too many requests. Please try again later.");
    };
    const address = c.get("clientIp");
    if (address !== undefined) {
      const decision = await deps.store.consume(`${rule.name}:address:${address}`, rule.perAddress);
      if (!decision.allowed) return refuse(decision.retryAfter);
    }
    const session = c.req.header("Cookie") ? await deps.getSession(c.req.raw.headers) : null;
    if (session) {
      const decision = await deps.store.consume(`${rule.name}:user:${session.user.id}`, rule.perUser);
      if (!decision.allowed) return refuse(decision.retryAfter);
    }
    return next();
  };
}

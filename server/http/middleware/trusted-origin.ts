import type { MiddlewareHandler } from "hono";
import { ERROR_CODES } from "../../../common/error-codes";
import type { AppEnv } from "../app-env";
import { errorResponse } from "../errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The origin of a URL or an Origin header's value; null when it is not one. */
function originOf(value: string): string | null {
  try {
    const { origin } = new URL(value);
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/**
 * The app's own CSRF check, for every write outside better-auth (which checks its own endpoints), on in every mode
 * (better-auth turns its check off under NODE_ENV=test; this one depends on the configuration alone). A write that
 * says where it comes from (`Origin`, or `Referer` when there is no Origin, as better-auth reads them) must come from
 * one of the trusted origins (BASE_URL's and TRUSTED_ORIGINS): 403 INVALID_ORIGIN otherwise, before anything reads
 * the body. A write that says nothing, or `Origin: null`, is refused (403 MISSING_OR_NULL_ORIGIN) when it carries
 * cookies, the way better-auth refuses a cookie-authenticated one; without cookies it holds no ambient credential to
 * abuse and passes (a server-to-server client). `Origin: null` with `Sec-Fetch-Site: same-origin` is the app's own
 * page (better-auth infers the base URL then too).
 *
 * `isExempt` names the paths with a check of their own: better-auth's endpoints, a signature-verified webhook.
 */
export type TrustedOriginOptions = {
  /** BASE_URL's origin and TRUSTED_ORIGINS. */
  trustedOrigins: readonly string[];
  isExempt(path: string): boolean;
};

export function requireTrustedOrigin(options: TrustedOriginOptions): MiddlewareHandler<AppEnv> {
  const trusted = new Set(options.trustedOrigins.map((origin) => originOf(origin) ?? origin));
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || options.isExempt(c.req.path)) return next();
    const origin = c.req.header("Origin");
    if (origin === "null" && c.req.header("Sec-Fetch-Site") === "same-origin") return next();
    const claimed = origin || c.req.header("Referer") || "";
    if (claimed === "" || claimed === "null") {
      if (!c.req.header("Cookie")) return next();
      return errorResponse(c, ERROR_CODES.MISSING_OR_NULL_ORIGIN, "Missing or null Origin");
    }
    const claimedOrigin = originOf(claimed);
    const isTrusted = claimedOrigin !== null && trusted.has(claimedOrigin);
    return isTrusted ? next() : errorResponse(c, ERROR_CODES.INVALID_ORIGIN, "Invalid origin");
  };
}

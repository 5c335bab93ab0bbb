import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";

/** CSP, nosniff, Referrer-Policy and frame-ancestors on every answer; HSTS only when served over https. */
export function securityHeaders(options: { isHttps: boolean }): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "https:"],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameSrc: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
    },
    xContentTypeOptions: "nosniff",
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
    strictTransportSecurity: options.isHttps ? "max-age=63072000; includeSubDomains" : false,
    crossOriginResourcePolicy: "same-origin",
    crossOriginOpenerPolicy: "same-origin",
    crossOriginEmbedderPolicy: false,
  });
}

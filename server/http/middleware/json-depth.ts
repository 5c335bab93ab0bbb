import type { MiddlewareHandler } from "hono";
import { ERROR_CODES } from "../../../common/error-codes";
import type { AppEnv } from "../app-env";
import { errorResponse } from "../errors";

/** Deeper than any body the app or the billing sandbox accepts (organization metadata stops at 10 levels). */
export const MAX_BODY_NESTING = 32;

/**
 * True when the bytes open more than `max` arrays or objects inside each other. A single pass over the raw
 * bytes (in UTF-8 no multi-byte character contains an ASCII byte) that skips string contents; it neither
 * parses nor recurses, so it costs the same for hostile and honest bodies.
 */
export function isNestedDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index += 1) {
    const char = bytes[index];
    if (inString) {
      if (char === 0x5c)
        index += 1; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * Refuses deeply nested bodies with a 400 before any handler sees them: code that walks parsed JSON
 * recursively (validation, serialisation, our own checks) would otherwise overflow the stack on them.
 * Every body is scanned whatever its declared type, because some parsers read JSON whatever the header says.
 */
export function refuseDeepJson(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD" || !c.req.raw.body || /^multipart\//i.test(c.req.header("content-type") ?? "")) return next();
    const bytes = new Uint8Array(await c.req.raw.arrayBuffer());
    if (isNestedDeeperThan(bytes, MAX_BODY_NESTING)) {
      return errorResponse(c, ERROR_CODES.INVALID_JSON, `The request body is nested more than ${MAX_BODY_NESTING} levels deep`);
    }
    // The body was read: hand the handlers an unread copy of the same bytes (a signature may cover them).
    c.req.raw = new Request(c.req.raw, { body: bytes });
    await next();
  };
}

import type { MiddlewareHandler } from "hono";
import { ERROR_CODES } from "../../../common/error-codes";
import type { AppEnv } from "../app-env";
import { errorResponse } from "../errors";

/** Deeper than any body the app or the billing sandbox accepts (organization metadata stops at 10 levels). */
export const MAX_BODY_NESTING = 32;

export type BodyProblem = "too-deep" | "nul-character";

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const NUL_ESCAPE = [0x75, 0x30, 0x30, 0x30, 0x30]; // "u0000" after a backslash

/**
 * What is wrong with a body, if anything: arrays or objects opened more than `max` levels inside each other,
 * or a NUL character (a raw byte, or the JSON escape inside a string) that PostgreSQL cannot store in text.
 * A single pass over the raw bytes (in UTF-8 no multi-byte character contains an ASCII byte) that skips
 * string contents; it neither parses nor recurses, so it costs the same for hostile and honest bodies.
 */
export function findBodyProblem(bytes: Uint8Array, max: number): BodyProblem | undefined {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index += 1) {
    const char = bytes[index];
    if (char === 0x00) return "nul-character";
    if (inString) {
      if (char === BACKSLASH) {
        if (NUL_ESCAPE.every((expected, offset) => bytes[index + 1 + offset] === expected)) return "nul-character";
        index += 1; // the escaped character is text, whatever it is
      } else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > max) return "too-deep";
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
    }
  }
  return undefined;
}

const NUL_MESSAGE = "The request contains a NUL character, which no field accepts";

/**
 * Refuses, with a 400 before any handler sees them, two kinds of input that honest clients never send and
 * that broke code further in: bodies nested deeper than `MAX_BODY_NESTING` (code that walks parsed JSON
 * recursively overflows the stack on them) and NUL characters in the path, the query or the body (PostgreSQL
 * refuses them in text, as a 500). Every body is scanned whatever its declared type, because some parsers
 * read JSON whatever the header says.
 */
export function refuseHostileInput(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (/%00/.test(c.req.url)) return errorResponse(c, ERROR_CODES.VALIDATION_ERROR, NUL_MESSAGE);
    if (
      c.req.method === "GET" ||
      c.req.method === "HEAD" ||
      !c.req.raw.body ||
      /^multipart\//i.test(c.req.header("content-type") ?? "")
    )
      return next();
    const bytes = new Uint8Array(await c.req.raw.arrayBuffer());
    const problem = findBodyProblem(bytes, MAX_BODY_NESTING);
    if (problem === "too-deep")
      return errorResponse(
        c,
        ERROR_CODES.INVALID_JSON,
        `The request body is nested more than ${MAX_BODY_NESTING} levels deep`,
      );
    if (problem === "nul-character") return errorResponse(c, ERROR_CODES.VALIDATION_ERROR, NUL_MESSAGE);
    // The body was read: hand the handlers an unread copy of the same bytes (a signature may cover them).
    c.req.raw = new Request(c.req.raw, { body: bytes });
    await next();
  };
}

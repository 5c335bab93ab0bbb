import { validator } from "hono/validator";
import { z } from "zod";
import { parseJsonBody, parseWith } from "./errors";

/**
 * Hono's validator with a zod schema: a refused value throws the app's `AppError` (400 VALIDATION_ERROR,
 * "field: message"), so the one error handler answers; the handler reads `c.req.valid(target)`.
 */
export function validate<T extends "query" | "json" | "param", S extends z.ZodType>(target: T, schema: S) {
  const middleware = validator(target, (value) => parseWith(schema, value) as z.output<S>);
  if (target !== "json") return middleware;
  // Hono's JSON validator reads a body of another type as {} and answers broken JSON with a 400 of its own:
  // reading it first gives the app's 415 and INVALID_JSON, as for every other JSON body.
  const readingJsonFirst: typeof middleware = async (c, next) => {
    await parseJsonBody(c, z.unknown());
    return middleware(c, next);
  };
  return readingJsonFirst;
}

import type { Env, MiddlewareHandler, ValidationTargets } from "hono";
import { validator } from "hono/validator";
import { z } from "zod";
import { parseJsonBody, parseWith } from "./errors";

type Target = "query" | "json" | "param";

/**
 * What a caller sends for a target, as Hono's typed client (`hc`) asks for it: the schema's input, with
 * query and path values as strings (optional where the schema has a default or is optional).
 */
type ValidatedInput<T extends Target, S extends z.ZodType> = T extends "json"
  ? z.input<S>
  : { [K in keyof z.input<S>]: ValidationTargets[T][string] };

/**
 * Hono's validator with a zod schema: a refused value throws the app's `DomainError` (400 VALIDATION_ERROR,
 * "field: message"), so the one error handler answers; the handler reads `c.req.valid(target)`.
 */
export function validate<T extends Target, S extends z.ZodType, E extends Env = Env, P extends string = string>(
  target: T,
  schema: S,
): MiddlewareHandler<E, P, { in: { [K in T]: ValidatedInput<T, S> }; out: { [K in T]: z.output<S> } }> {
  const middleware = validator(target, (value) => parseWith(schema, value) as z.output<S>) as MiddlewareHandler;
  if (target !== "json") return middleware;
  // Hono's JSON validator reads a body of another type as {} and answers broken JSON with a 400 of its own:
  // reading it first gives the app's 415 and INVALID_JSON, as for every other JSON body.
  return async (c, next) => {
    await parseJsonBody(c, z.unknown());
    return middleware(c, next);
  };
}

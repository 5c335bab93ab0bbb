import type { Context } from "hono";
import type { z } from "zod";
import { serializeError } from "../common/serialize-error";

/**
 * Errors in the provider's wire format: `{error, detail}` for named errors and FastAPI's
 * `{detail: [{loc, msg, type}]}` for 422, because the SDK builds its error classes from those bodies.
 */
export class ApiError extends Error {
  constructor(
    public readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 410 | 422,
    public readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail));
    this.name = "ApiError";
  }
}

export const notFound = (detail = "Not found") => new ApiError(404, { error: "ResourceNotFound", detail });
export const forbidden = (error: string, detail: string) => new ApiError(403, { error, detail });
export const unauthorized = () => new ApiError(401, { error: "Unauthorized", detail: "Unauthorized" });

export function validationError(loc: (string | number)[], msg: string): ApiError {
  return new ApiError(422, { detail: [{ loc, msg, type: "value_error" }] });
}

export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError(422, {
    detail: result.error.issues.map((issue) => ({
      loc: ["body", ...issue.path.map((part) => (typeof part === "symbol" ? String(part) : part))],
      msg: issue.message,
      type: issue.code,
    })),
  });
}

/** Reads a JSON body; a broken or missing one is a 422 like the provider's, never a 500. */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw validationError(["body"], "Invalid JSON body");
  }
  return parseBody(schema, raw);
}

/** Where the sandbox reports what goes wrong: the app's logger inside `npm start`, a JSON line logger on its own. */
export type SandboxLogger = {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
};

/** The sandbox's one `onError`: provider-format errors keep their status, anything else is logged and a 500. */
export function createErrorHandler(logger: SandboxLogger | undefined) {
  return (error: Error, c: Context): Response => {
    if (error instanceof ApiError) return c.json(error.body, error.status);
    logger?.error("billing sandbox: unhandled error", {
      method: c.req.method,
      path: c.req.path,
      error: serializeError(error),
    });
    return c.json({ error: "InternalServerError", detail: error.message }, 500);
  };
}

import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "../../common/error-codes";
import type { Logger } from "../logger";

/** The one error type services throw; routes never build error responses by hand. */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function errorResponse(c: Context, code: ErrorCode, message: string, details?: unknown): Response {
  return c.json({ code, message, ...(details === undefined ? {} : { details }) }, ERROR_STATUS[code] as 400);
}

/** The app's single `onError`: known errors keep their status, anything else is a logged 500. */
export function createErrorHandler(logger: Logger) {
  return (error: Error, c: Context): Response => {
    if (error instanceof AppError) return errorResponse(c, error.code, error.message, error.details);
    if (error instanceof HTTPException) {
      const code = error.status === 413 ? ERROR_CODES.PAYLOAD_TOO_LARGE : error.status === 401 ? ERROR_CODES.UNAUTHORIZED : ERROR_CODES.VALIDATION_ERROR;
      return c.json({ code, message: error.message || "Bad request" }, error.status);
    }
    logger.error("unhandled error", { path: c.req.path, method: c.req.method, error: error.message, stack: error.stack });
    return errorResponse(c, ERROR_CODES.INTERNAL_ERROR, "Something went wrong on our side. Please try again.");
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; ");
}

/** Reads and validates a JSON body: wrong content type, broken JSON and wrong fields are 4xx, never 5xx. */
export async function parseJsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const contentType = c.req.header("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new AppError(ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, "Send the body as application/json");
  }
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new AppError(ERROR_CODES.INVALID_JSON, "The request body is not valid JSON");
  }
  return parseWith(schema, raw);
}

export function parseQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  return parseWith(schema, c.req.query());
}

export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError(ERROR_CODES.VALIDATION_ERROR, describeIssues(result.error), result.error.issues);
  return result.data;
}

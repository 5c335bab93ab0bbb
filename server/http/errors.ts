import { isAPIError, type APIError } from "better-auth/api";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";
import { DomainError } from "../../common/domain-error";
import { ERROR_CODES, ERROR_STATUS, type CatalogueCode, type ErrorBody } from "../../common/error-codes";
import { serializeError, type Logger } from "../logger";
import { currentRequestScope } from "../request-scope";
import { withTimeout } from "../timeout";

/**
 * The body of every error answer: the code clients branch on, a sentence, the details of a validation error, and
 * the request's id (the `X-Request-Id` header's, and every log line's about the request) to quote to support.
 */
export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { code, message, ...(details === undefined ? {} : { details }), requestId: currentRequestScope()?.requestId };
}

/**
 * better-auth answers most of its refusals itself (a hook's APIError, a rate limit): its JSON error bodies get the
 * request's id too. Only error answers are read again; a success passes untouched.
 */
export async function withRequestIdInBody(response: Response): Promise<Response> {
  const requestId = currentRequestScope()?.requestId;
  if (
    response.status < 400 ||
    requestId === undefined ||
    !/^application\/json/.test(response.headers.get("content-type") ?? "")
  )
    return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as unknown;
  if (typeof body !== "object" || body === null || Array.isArray(body) || "requestId" in body) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...body, requestId }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

export function errorResponse(c: Context, code: CatalogueCode, message: string, details?: unknown): Response {
  return c.json(errorBody(code, message, details), ERROR_STATUS[code] as 400);
}

/**
 * What a request that lost a race on a unique index answers: the answer its sequential duplicate gets, or 409 where
 * that answer is no error. The index is named as its violation names it: PostgreSQL by constraint, SQLite by columns.
 * http/ knows no table: the modules and auth that own the indexes hand their conflicts to the app, which passes
 * them to `createErrorHandler`.
 */
export type UniqueConflict = {
  indexes: readonly string[];
  /** Only for requests to this path (a more specific answer listed before the general one). */
  path?: string;
  answer: () => Error;
};

/** The status and message an error code answers with, where a table (the spec's, from server/auth) sets them. */
export type ErrorAnswers = Readonly<Record<string, { status: number; message: string } | undefined>>;

/** The unique index a database error violated, as the database names it; undefined for any other error. */
function violatedUniqueIndex(error: Error): string | undefined {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (code === "23505" && typeof constraint === "string") return constraint;
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY")
    return /UNIQUE constraint failed: (.+)$/.exec(error.message)?.[1];
  return undefined;
}

/** better-auth's error body, with the status and message `answers` (the spec's table) gives its code. */
function apiErrorResponse(c: Context, error: APIError, answers: ErrorAnswers): Response {
  const code = error.body?.code ?? String(error.status);
  const spec = answers[code];
  return c.json(
    errorBody(code, spec?.message ?? error.body?.message ?? error.message),
    (spec?.status ?? error.statusCode) as 400,
  );
}

/** How long a probe waits for the database to answer a ping before calling it down. */
const DATABASE_PROBE_TIMEOUT_MS = 1_000;
/** How long after a ping failed a request's failure is still put down to the database (see `explainsFailure`). */
const RECENTLY_DOWN_MS = 2_000;

export type DatabaseProbe = {
  /** Whether the database does not answer a ping now (waiting at most a second): what /healthz reports. */
  isDown(): Promise<boolean>;
  /**
   * Whether a request's failure is the database's: it does not answer now, or a ping failed less than 2 s ago.
   * A statement that failed while PostgreSQL was still starting up (or going down) is probed a moment later,
   * when it may answer again: without the memory that request would be a 500 instead of the outage's 503.
   */
  explainsFailure(): Promise<boolean>;
  /**
   * Whether a refusal (better-auth's 401 when its session lookup fails) is the database's: only when the request saw
   * a statement or a connection fail there (or the database was closed), and `explainsFailure`. A wrong password's
   * 401 on a starved server is not probed: its ping, waiting over a second for a free pooled connection, turned it
   * into a 503 (shutdown.fault.test.ts).
   */
  explainsRefusal(): Promise<boolean>;
};

/** Asks the database whether it answers, for at most a second: run only once something has already failed, and by /healthz. */
export function createDatabaseProbe(
  ping: () => Promise<void>,
  now: () => number = Date.now,
  isClosed: () => boolean = () => false,
): DatabaseProbe {
  let lastDownAt = Number.NEGATIVE_INFINITY;
  async function isDown(): Promise<boolean> {
    try {
      await withTimeout(DATABASE_PROBE_TIMEOUT_MS, "ping timed out", ping);
      return false;
    } catch {
      lastDownAt = now();
      return true;
    }
  }
  const explainsFailure = async () => (await isDown()) || now() - lastDownAt < RECENTLY_DOWN_MS;
  return {
    isDown,
    explainsFailure,
    explainsRefusal: async () =>
      (Boolean(currentRequestScope()?.sawDatabaseFailure) || isClosed()) && (await explainsFailure()),
  };
}

/** The answer to any request that failed while the database does not answer, whatever the driver called it. */
export function databaseUnavailable(c: Context, logger: Logger, error?: unknown): Response {
  logger.error("database unavailable", {
    method: c.req.method,
    path: c.req.path,
    ...(error === undefined ? {} : { error: serializeError(error) }),
  });
  return errorResponse(
    c,
    ERROR_CODES.SERVICE_UNAVAILABLE,
    "The service is unavailable for a moment. Please try again shortly.",
  );
}

/**
 * The app's single `onError`, for its own routes and for whatever better-auth lets through (see `onAPIError`
 * in server/auth/auth.ts): known errors keep their status, a lost race answers like its sequential duplicate,
 * an error while the database does not answer is a 503, anything else is a logged 500. Logs carry the
 * error, never the request body.
 */
export type ErrorHandlerDeps = {
  isDatabaseDown?: () => Promise<boolean>;
  /** The spec's statuses and messages by better-auth error code (server/auth/spec-errors.ts's SPEC_ERRORS). */
  errorAnswers?: ErrorAnswers;
  /** The answers of lost races on unique indexes, registered by the modules (and auth) that own the indexes. */
  uniqueConflicts?: readonly UniqueConflict[];
};

export function createErrorHandler(logger: Logger, dependencies: ErrorHandlerDeps = {}) {
  const { errorAnswers = {}, uniqueConflicts = [] } = dependencies;
  const isConflictFor = (index: string, path: string) => (entry: UniqueConflict) =>
    entry.indexes.includes(index) && (entry.path === undefined || entry.path === path);
  async function isDatabasesFailure(error: Error): Promise<boolean> {
    return isLostConnection(error) || Boolean(await dependencies.isDatabaseDown?.());
  }
  const handle = async (error: Error, c: Context): Promise<Response> => {
    forgetReplacedBody(c);
    if (error instanceof DomainError) {
      // A code of the spec's catalogue answers with the spec's message, as better-auth's own refusals do.
      const spec = errorAnswers[error.code];
      if (spec) return c.json(errorBody(error.code, spec.message, error.details), spec.status as 400);
      return errorResponse(c, error.code, error.message, error.details);
    }
    if (error instanceof HTTPException) {
      const code =
        error.status === 413
          ? ERROR_CODES.PAYLOAD_TOO_LARGE
          : error.status === 401
            ? ERROR_CODES.UNAUTHORIZED
            : ERROR_CODES.VALIDATION_ERROR;
      return c.json(errorBody(code, error.message || "Bad request"), error.status);
    }
    if (isAPIError(error)) {
      if (error.statusCode < 500) return apiErrorResponse(c, error, errorAnswers);
      if (await isDatabasesFailure(error)) return databaseUnavailable(c, logger, error);
      logger.error("auth error", { method: c.req.method, path: c.req.path, error: serializeError(error) });
      return apiErrorResponse(c, error, errorAnswers);
    }
    const index = violatedUniqueIndex(error);
    if (index !== undefined) {
      const conflict = uniqueConflicts.find(isConflictFor(index, c.req.path));
      if (conflict) return handle(conflict.answer(), c);
      logger.warn("unique violation without a mapped answer", { method: c.req.method, path: c.req.path, index });
      return errorResponse(
        c,
        ERROR_CODES.CONFLICT,
        "Another request changed the same data at the same moment. Please try again.",
      );
    }
    if (await isDatabasesFailure(error)) return databaseUnavailable(c, logger, error);
    logger.error("unhandled error", { method: c.req.method, path: c.req.path, error: serializeError(error) });
    return errorResponse(c, ERROR_CODES.INTERNAL_ERROR, "Something went wrong on our side. Please try again.");
  };
  return handle;
}

/** PostgreSQL's codes of a connection exception (class 08) and of a shutdown or a crash (57P01–57P03). */
const LOST_CONNECTION_CODES = /^(08\w{3}|57P0[1-3])$/;
/** node-postgres's own words for a connection it lost or could not open (they carry no code). */
const LOST_CONNECTION_MESSAGES = /Connection terminated|is not queryable|timeout exceeded when trying to connect/;
/**
 * SQLite's file held by another process past the wait, or written by one since this transaction read it
 * (SQLITE_BUSY_SNAPSHOT: `npm run admin` or a restore while the server runs): the request may simply be tried again.
 */
const BUSY_FILE_CODES = /^SQLITE_(BUSY|LOCKED)(_\w+)?$/;

/**
 * Whether an error, or one it was caused by, is a database connection that was refused, lost or ended by a shutdown,
 * or a SQLite file busy with another process: the database's failure whatever a ping says now. On a busy machine a
 * request whose connection PostgreSQL's crash cut is examined after it is back, and more than 2 s after the last failed ping: without this it was a 500
 * ("Client has encountered a connection error and is not queryable", postgres-restart.fault.test.ts).
 */
export function isLostConnection(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth += 1) {
    const { code } = cause as { code?: unknown };
    if (typeof code === "string" && (LOST_CONNECTION_CODES.test(code) || BUSY_FILE_CODES.test(code))) return true;
    if (LOST_CONNECTION_MESSAGES.test(cause.message)) return true;
  }
  return false;
}

/** The headers that describe an answer's body, not the answer: they must not outlive the body they describe. */
const BODY_HEADERS = ["content-length", "content-encoding", "content-range", "content-disposition", "etag"];

/**
 * An error thrown after an answer was built (a middleware failing after `next()`, as the read cache's `keep` does
 * when the database goes down between the answer and its session check) replaces that answer, and Hono carries the
 * replaced answer's headers over to the error's (`c.json`, and the `c.res` setter). The replaced body's length
 * on a shorter error body left the client waiting for bytes that never came, until the server's keep-alive timeout
 * (5 s) closed the connection: the `TypeError: terminated` postgres-restart.fault.test.ts saw instead of the 503.
 * The other headers (security headers, cookies) are kept.
 */
function forgetReplacedBody(c: Context): void {
  if (!c.finalized) return;
  const headers = new Headers(c.res.headers);
  for (const name of BODY_HEADERS) headers.delete(name);
  // Unset first: setting `c.res` over an answer copies that answer's headers onto the new one.
  c.res = undefined;
  c.res = new Response(null, { headers });
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** Reads and validates a JSON body: wrong content type, broken JSON and wrong fields are 4xx, never 5xx. */
export async function parseJsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const contentType = c.req.header("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new DomainError(ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, "Send the body as application/json");
  }
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new DomainError(ERROR_CODES.INVALID_JSON, "The request body is not valid JSON");
  }
  return parseWith(schema, raw);
}

export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new DomainError(ERROR_CODES.VALIDATION_ERROR, describeIssues(result.error), result.error.issues);
  return result.data;
}

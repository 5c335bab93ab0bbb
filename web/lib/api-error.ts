import type { OrganizationSummary } from "../../common/organization.schemas";

/** Errors from better-auth and from the app's own API share one shape: `{ code, message }` and a status. */
export class ApiError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly code?: string,
    /** What the app's own API adds to some refusals (`details` in the body), e.g. `{ fieldErrors: { discountCode: […] } }`. */
    public readonly details?: unknown,
    /** For a 429: the seconds to wait, from the answer's `Retry-After` header. */
    public readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * The sentences people read for each error (./error-sentences.ts, about 4 KB gzipped) load on first need, not with
 * the app: a first page shows no error before a request fails. Every way an ApiError is made waits for them first:
 * `toResponseError` here (the app's API, the session, the meta), and the better-auth client, whose results `unwrap`
 * reads, loads them with itself (./auth-client.ts). So `toApiError` and `unwrap` stay synchronous for their callers.
 */
let errorSentence: ((error: ErrorAnswer) => string) | undefined;
export async function loadErrorSentences(): Promise<void> {
  errorSentence ??= (await import("./error-sentences")).errorSentence;
}

/** The seconds in a `Retry-After` header (seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(header: string | null | undefined): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(1, Math.ceil((at - Date.now()) / 1000));
}

/** The organizations a SOLE_OWNER refusal lists (its `details`), or undefined for any other error. */
export function soleOwnerOrganizations(error: unknown): OrganizationSummary[] | undefined {
  if (!(error instanceof ApiError) || error.code !== "SOLE_OWNER" || !Array.isArray(error.details)) return undefined;
  const isSummary = (item: unknown): item is OrganizationSummary =>
    typeof (item as { id?: unknown } | null)?.id === "string";
  return error.details.filter(isSummary);
}

/** Too many wrong second-factor codes for the account (10 in a row): its codes are refused for a while (429). */
export const ACCOUNT_TEMPORARILY_LOCKED = "ACCOUNT_TEMPORARILY_LOCKED";

type ErrorAnswer = { status: number; code?: string; message?: string; retryAfter?: number; details?: unknown };

/**
 * Turns an error answer (better-auth's client error, or the app's API's body) into an ApiError whose message a
 * person can act on. The code and status stay on it, so forms can still put it on its field.
 */
export function toApiError(error: ErrorAnswer & { statusText?: string }): ApiError {
  if (!errorSentence) throw new Error("toApiError needs the error sentences: await loadErrorSentences() first");
  const retryAfter = typeof error.retryAfter === "number" ? error.retryAfter : undefined;
  // A 429 is a rate limit unless its code says more: a locked account's codes keep their own wording.
  const code = error.status === 429 && error.code !== ACCOUNT_TEMPORARILY_LOCKED ? "TOO_MANY_REQUESTS" : error.code;
  return new ApiError(errorSentence({ ...error, retryAfter }), error.status, code, error.details, retryAfter);
}

/**
 * Turns an error response (a fetch Response, or the typed client's) into an ApiError: the body's `code`, `message`
 * and `details`, and for a 429 the `Retry-After` seconds. A body that is not JSON leaves them out.
 */
export async function toResponseError(response: {
  status: number;
  statusText?: string;
  headers: { get(name: string): string | null };
  json(): Promise<unknown>;
}): Promise<ApiError> {
  const [body] = await Promise.all([response.json().catch(() => null) as Promise<unknown>, loadErrorSentences()]);
  const field = (key: string): unknown =>
    typeof body === "object" && body !== null ? Reflect.get(body, key) : undefined;
  const text = (key: string) => (typeof field(key) === "string" ? (field(key) as string) : undefined);
  return toApiError({
    status: response.status,
    statusText: response.statusText,
    code: text("code"),
    message: text("message"),
    details: field("details"),
    retryAfter: retryAfterSeconds(response.headers.get("Retry-After")),
  });
}

/** Unwraps a better-auth client result: returns the data or throws an ApiError. */
export function unwrap<T>(result: { data: T | null; error: (ErrorAnswer & { statusText?: string }) | null }): T {
  if (result.error) throw toApiError(result.error);
  return result.data as T;
}

/**
 * better-auth's client (better-fetch) gives an error its body's fields but not its headers: for a 429 this copies
 * the `Retry-After` seconds into the body as `retryAfter`, so `toApiError` can say how long to wait. Passed to
 * the client as `fetchOptions.onResponse`.
 */
export async function carryRetryAfter({ response }: { response: Response }): Promise<Response | undefined> {
  if (response.status !== 429) return undefined;
  const retryAfter = retryAfterSeconds(response.headers.get("Retry-After") ?? response.headers.get("X-Retry-After"));
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => ({}));
  const fields = typeof body === "object" && body !== null ? body : {};
  return new Response(JSON.stringify({ ...fields, retryAfter }), {
    status: 429,
    statusText: response.statusText,
    headers: response.headers,
  });
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return "Could not reach the server. Check your connection and try again.";
  return "Something went wrong. Please try again.";
}

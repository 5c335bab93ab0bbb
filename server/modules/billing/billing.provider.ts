import { createPolar, type models, type Polar } from "@polar-sh/sdk/2026-10";
import { ERROR_CODES } from "../../../common/error-codes";
import { DomainError } from "../../../common/domain-error";

export type { models };
export type ProviderClient = Polar;

/** How long one provider call may take before the app answers 503: the SDK's own default is 5 s. */
const PROVIDER_TIMEOUT_SECONDS = 8;

/** The provider's SDK client (the real provider or the sandbox: they speak the same API). */
export function createProviderClient(options: { serverUrl: string; accessToken: string }): ProviderClient {
  return createPolar({
    accessToken: options.accessToken,
    baseUrl: options.serverUrl,
    timeout: PROVIDER_TIMEOUT_SECONDS,
  });
}

type ProviderFailure = { statusCode?: number; error?: unknown; name?: string; message?: string };

/** The HTTP status the provider answered with, when it answered at all. */
export function providerStatus(error: unknown): number | undefined {
  const status = (error as ProviderFailure | null)?.statusCode;
  return typeof status === "number" ? status : undefined;
}

/** The provider's own explanation of a refusal (`detail` as a string, or its validation messages). */
export function providerDetail(error: unknown): string | undefined {
  const body = (error as ProviderFailure | null)?.error;
  const parsed: unknown = typeof body === "string" ? safeJson(body) : body;
  const detail = (parsed as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    const messages = detail
      .map((issue) => (issue as { msg?: unknown }).msg)
      .filter((msg): msg is string => typeof msg === "string");
    return messages.length ? messages.join(" ") : undefined;
  }
  return undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Runs one provider call; a failure becomes the app's answer: 503 when the provider cannot be reached, is
 * overloaded or fails itself (nothing was changed: try again later), 504 when it did not answer within the
 * client's timeout (the request may have reached it: a retry is safe, and a change it made arrives by webhook),
 * 502 when it refuses what the app asked (the app's mistake or a state it did not expect). Callers handle the
 * refusals they expect (404, 422) before this.
 */
export async function callProvider<T>(action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toProviderError(action, error);
  }
}

export function toProviderError(action: string, error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  // A request that timed out may have reached the provider: the answer cannot say nothing was changed.
  if (isTimeout(error)) {
    return new DomainError(
      ERROR_CODES.UPSTREAM_TIMEOUT,
      `The billing provider did not answer in time (${action}). Try again in a moment: a change that did go through is not made twice.`,
    );
  }
  if (isProviderUnavailable(error)) {
    return new DomainError(
      ERROR_CODES.SERVICE_UNAVAILABLE,
      `The billing provider is not answering (${action}); nothing was changed. Try again in a moment.`,
    );
  }
  const detail = providerDetail(error);
  return new DomainError(
    ERROR_CODES.BAD_GATEWAY,
    `The billing provider refused to ${action}${detail ? `: ${detail}` : "."}`,
  );
}

/** Whether a call failed because the provider could not act now (unreachable, overloaded, failing), not because it refused. */
export function isProviderUnavailable(error: unknown): boolean {
  const status = providerStatus(error);
  return status === undefined || status >= 500 || status === 429;
}

/** Whether a call gave up waiting for the provider (the client's timeout, while connecting, waiting or reading). */
function isTimeout(error: unknown): boolean {
  const failure = error as ProviderFailure | null;
  return failure?.name === "TimeoutError" || /aborted due to timeout/i.test(failure?.message ?? "");
}

/** Whether a call failed because the provider does not have the object. */
export function isNotFound(error: unknown): boolean {
  return providerStatus(error) === 404;
}

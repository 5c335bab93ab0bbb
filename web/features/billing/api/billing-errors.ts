import { ApiError } from "../../../lib/api-error";
import { billingErrorSentence, DISCOUNT_CODE_REFUSED_MESSAGE } from "../../../lib/error-sentences";

/**
 * The billing endpoints' refusals in product words (web/lib/error-sentences.ts words them, as every code). The
 * code, status and details stay on the error, so forms can still put an answer on its field.
 */

function fieldErrorsOf(error: ApiError): Record<string, unknown> {
  const details = error.details;
  if (typeof details !== "object" || details === null) return {};
  const fieldErrors: unknown = Reflect.get(details, "fieldErrors");
  return typeof fieldErrors === "object" && fieldErrors !== null ? (fieldErrors as Record<string, unknown>) : {};
}

/**
 * The server answers an unknown discount code with VALIDATION_ERROR and `details.fieldErrors.discountCode`: the
 * checkout form puts that answer on its field.
 */
export function isDiscountCodeRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === "VALIDATION_ERROR" && "discountCode" in fieldErrorsOf(error);
}

/**
 * A deployment without a billing provider answers every billing endpoint 404 BILLING_NOT_CONFIGURED: the screens
 * say so instead of an error, and (a 4xx) the query is not retried (web/lib/query-client.ts).
 */
export function isBillingNotConfigured(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === "BILLING_NOT_CONFIGURED";
}

/** Pure: the product sentence for a billing endpoint's refusal. */
export function billingErrorMessage(error: ApiError, audience: "organization" | "admin" = "organization"): string {
  return isDiscountCodeRefusal(error) ? DISCOUNT_CODE_REFUSED_MESSAGE : billingErrorSentence(error, audience);
}

/** Rewrites an ApiError's message in product words; anything else (a network failure) goes through unchanged. */
export function toBillingError(error: unknown, audience: "organization" | "admin" = "organization"): unknown {
  if (!(error instanceof ApiError)) return error;
  return new ApiError(billingErrorMessage(error, audience), error.status, error.code, error.details);
}

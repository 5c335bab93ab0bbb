import { ApiError } from "../../../lib/api-error";

/**
 * The billing endpoints' refusals in product words. The server's messages are written for developers (they name
 * fields and the provider's own explanations); people see these instead. The code and status stay on the error,
 * so forms can still put an answer on its field.
 */
const BY_CODE: Record<string, string> = {
  PLAN_LIMIT_REACHED: "Your plan's limit is reached. Upgrade or add seats to continue.",
  FORBIDDEN: "Only owners and admins can change billing.",
  UNAUTHORIZED: "Your session has ended. Sign in again to continue.",
  NOT_FOUND: "We could not find this billing information. Reload the page and try again.",
  CONFLICT: "Billing changed in the meantime. Reload the page to see the current plan, then try again.",
  TOO_MANY_REQUESTS: "Too many attempts. Wait a minute, then try again.",
  SERVICE_UNAVAILABLE: "The payment provider is not answering right now. Nothing was changed; try again in a moment.",
  BAD_GATEWAY: "The payment provider did not accept this change. Nothing was changed; try again, or contact support if it keeps happening.",
  UPSTREAM_TIMEOUT: "The payment provider did not answer in time. Reload the page in a moment: if the change is not there, try again (it is never made twice).",
  VALIDATION_ERROR: "Some details are not right. Check them and try again.",
  INTERNAL_ERROR: "Something went wrong on our side. Nothing was changed; try again in a moment.",
};

/** The same refusals for the platform admins' billing console, where the reader is staff. */
const ADMIN_BY_CODE: Record<string, string> = {
  ...BY_CODE,
  FORBIDDEN: "Only platform admins can do this.",
  NOT_FOUND: "This organization no longer exists, or has no billing record.",
  BAD_GATEWAY: "The payment provider refused this request. Nothing was changed; check the order in the provider's dashboard.",
};

function byStatus(status: number): string {
  if (status === 401) return BY_CODE.UNAUTHORIZED!;
  if (status === 403) return BY_CODE.FORBIDDEN!;
  if (status === 404) return BY_CODE.NOT_FOUND!;
  if (status === 409) return BY_CODE.CONFLICT!;
  if (status === 429) return BY_CODE.TOO_MANY_REQUESTS!;
  if (status === 502) return BY_CODE.BAD_GATEWAY!;
  if (status === 503 || status === 504) return BY_CODE.SERVICE_UNAVAILABLE!;
  if (status >= 500) return BY_CODE.INTERNAL_ERROR!;
  return BY_CODE.VALIDATION_ERROR!;
}

/**
 * A refusal the web words more precisely than its code: the server answers an unknown discount code with
 * VALIDATION_ERROR and `details.fieldErrors.discountCode`; the checkout form puts it on that field by this code.
 */
export const DISCOUNT_CODE_INVALID = "DISCOUNT_CODE_INVALID";
export const DISCOUNT_CODE_INVALID_MESSAGE = "That discount code is not valid. Check it, or leave the field empty.";

function fieldErrorsOf(error: ApiError): Record<string, unknown> {
  const details = error.details;
  if (typeof details !== "object" || details === null) return {};
  const fieldErrors: unknown = Reflect.get(details, "fieldErrors");
  return typeof fieldErrors === "object" && fieldErrors !== null ? (fieldErrors as Record<string, unknown>) : {};
}

/** Pure: the product sentence for a billing endpoint's refusal. */
export function billingErrorMessage(error: ApiError, audience: "organization" | "admin" = "organization"): string {
  const table = audience === "admin" ? ADMIN_BY_CODE : BY_CODE;
  return (error.code && table[error.code]) || (audience === "admin" && error.status === 403 ? ADMIN_BY_CODE.FORBIDDEN! : byStatus(error.status));
}

/** Rewrites an ApiError's message in product words; anything else (a network failure) goes through unchanged. */
export function toBillingError(error: unknown, audience: "organization" | "admin" = "organization"): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.code === "VALIDATION_ERROR" && "discountCode" in fieldErrorsOf(error)) {
    return new ApiError(DISCOUNT_CODE_INVALID_MESSAGE, error.status, DISCOUNT_CODE_INVALID, error.details);
  }
  return new ApiError(billingErrorMessage(error, audience), error.status, error.code, error.details);
}

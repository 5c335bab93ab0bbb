import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from "../../common/account.schemas";

/** Errors from better-auth and from the app's own API share one shape: `{ code, message }` and a status. */
export class ApiError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly code?: string,
    /** What the app's own API adds to some refusals (`details` in the body), e.g. `{ fieldErrors: { discountCode: […] } }`. */
    public readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const USERNAME_TAKEN_MESSAGE = "That username is already taken. Try another.";

type BetterAuthError = { message?: string; status: number; code?: string; statusText?: string } | null;

const FRIENDLY: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "That e-mail or password is not right.",
  INVALID_USERNAME_OR_PASSWORD: "That username or password is not right.",
  INVALID_PASSWORD: "That password is not right.",
  EMAIL_NOT_VERIFIED: "Verify your e-mail address first: we just sent you a new link.",
  PASSWORD_TOO_SHORT: "Use at least 8 characters.",
  PASSWORD_TOO_LONG: "Use at most 128 characters.",
  INVALID_TOKEN: "This link is invalid or has expired. Ask for a new one.",
  SESSION_EXPIRED: "For your security, sign in again before doing this.",
  USERNAME_IS_ALREADY_TAKEN: USERNAME_TAKEN_MESSAGE,
  USERNAME_TOO_SHORT: `Use at least ${USERNAME_MIN_LENGTH} characters.`,
  USERNAME_TOO_LONG: `Use at most ${USERNAME_MAX_LENGTH} characters.`,
  INVALID_USERNAME: "Use only letters, digits, dots and underscores.",
  // The billing rules refuse invitations, acceptances and new teams beyond the plan's limits (the forms word it per case).
  PLAN_LIMIT_REACHED: "The organization's plan limit is reached. An owner or admin can upgrade the plan or add seats in Settings › Billing.",
};

/** Turns a better-auth client error into an ApiError whose message a person can act on. */
export function toApiError(error: NonNullable<BetterAuthError>): ApiError {
  if (error.status === 429) return new ApiError("Too many attempts. Wait a minute, then try again.", 429, "TOO_MANY_REQUESTS");
  const message = (error.code && FRIENDLY[error.code]) || error.message || error.statusText || "Something went wrong. Please try again.";
  return new ApiError(message, error.status, error.code);
}

/** Unwraps a better-auth client result: returns the data or throws an ApiError. */
export function unwrap<T>(result: { data: T | null; error: BetterAuthError }): T {
  if (result.error) throw toApiError(result.error);
  return result.data as T;
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof TypeError) return "Could not reach the server. Check your connection and try again.";
  return "Something went wrong. Please try again.";
}

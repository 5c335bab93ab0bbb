import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from "../../common/account-limits";
import { banExpiryOf } from "../../common/ban-message";
import { formatDateTime } from "./format";

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
  // The platform-admin console's refusals.
  USER_ALREADY_EXISTS: "An account with this e-mail address already exists.",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "An account with this e-mail address already exists.",
  YOU_CANNOT_CHANGE_YOUR_OWN_ROLE: "You cannot change your own platform role. Ask another platform admin.",
  LAST_PLATFORM_ADMIN: "This is the last platform admin. Make someone else a platform admin first.",
  YOU_CANNOT_IMPERSONATE_ADMINS: "Platform admins cannot be impersonated.",
  YOU_CANNOT_BAN_YOURSELF: "You cannot ban yourself.",
  YOU_CANNOT_REMOVE_YOURSELF: "You cannot delete your own account here. Use Account settings › Delete account.",
};

/**
 * What a banned person is told: until when, in their own time, when the ban has an end. The server's message carries
 * the end as an ISO instant (`bannedUserMessage`); only that instant is read from it, never its words.
 */
export function bannedAccountMessage(banExpires: Date | null): string {
  const ban = banExpires ? `This account is banned until ${formatDateTime(banExpires)}.` : "This account is banned.";
  return `${ban} Contact the administrators if you think this is a mistake.`;
}

/** Turns a better-auth client error into an ApiError whose message a person can act on. */
export function toApiError(error: NonNullable<BetterAuthError>): ApiError {
  if (error.status === 429) return new ApiError("Too many attempts. Wait a minute, then try again.", 429, "TOO_MANY_REQUESTS");
  if (error.code === "BANNED_USER") return new ApiError(bannedAccountMessage(banExpiryOf(error.message)), error.status, error.code);
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

/**
 * The `error` values the sign-in error page (`/auth/error`, web/features/auth/routes/sign-in-error-page.tsx) explains,
 * each in words of its own; any other value reads as a general failure, and the page never shows the address's text.
 * A redirect that ends a sign-in there sends one of these: better-auth's codes at a provider's callback (and the
 * provider's `access_denied`), a ban, and the app's refusals of an SSO sign-in (server/modules/sso).
 */
export const SIGN_IN_ERROR_CODES = [
  "state_mismatch",
  "invalid_code",
  "access_denied",
  "account_not_linked",
  "email_not_verified",
  "email_does_not_match",
  "unable_to_link_account",
  "account_already_linked_to_different_user",
  "email_not_found",
  /** A ban: the app's own redirects say `banned`, better-auth's callback `BANNED_USER`; `error_description` its end. */
  "banned",
  "BANNED_USER",
  "SSO_SAML_RESPONSE_REFUSED",
  "SSO_DOMAIN_NOT_VERIFIED",
  "SSO_EMAIL_OUTSIDE_DOMAIN",
  "PLAN_LIMIT_REACHED",
] as const;

export type SignInErrorCode = (typeof SIGN_IN_ERROR_CODES)[number];

export function isSignInErrorCode(value: string | null | undefined): value is SignInErrorCode {
  return (SIGN_IN_ERROR_CODES as readonly (string | null | undefined)[]).includes(value);
}

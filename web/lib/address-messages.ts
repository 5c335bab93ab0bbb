/**
 * What a page says for the `?notice=` and `?error=` of its address. The address carries a code, never the words: a
 * link made elsewhere cannot put text of its own in the page's alert, and a code not listed here shows nothing.
 */

/** Success notices, each set by the page a person comes from (`search: { notice: "account-deleted" }`). */
const NOTICES = {
  "account-deleted": "Your account was deleted.",
  "password-changed": "Your password was changed. Sign in with the new one.",
} as const;

export type NoticeCode = keyof typeof NOTICES;

/** The `error=` better-auth adds to a link's callbackURL when the link did not work. */
const LINK_ERRORS: Record<string, string> = {
  INVALID_TOKEN: "That link is invalid or has expired. Ask for a new one.",
  invalid_token: "That link is invalid or has expired. Ask for a new one.",
  TOKEN_EXPIRED: "Something went wrong with that link.",
  USER_NOT_FOUND: "Something went wrong with that link.",
  INVALID_USER: "Something went wrong with that link.",
};

export function noticeMessage(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(NOTICES, code) ? NOTICES[code as NoticeCode] : undefined;
}

export function linkErrorMessage(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(LINK_ERRORS, code) ? LINK_ERRORS[code] : undefined;
}

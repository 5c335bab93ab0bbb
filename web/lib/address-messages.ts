/**
 * What a page says for the `?notice=` and `?error=` of its address. The address carries a code, never the words: a
 * link made elsewhere cannot put text of its own in the page's alert, and a code not listed here shows nothing.
 */

/** Success notices, each set by the page a person comes from (`search: { notice: "account-deleted" }`). */
const NOTICES = {
  "account-deleted": "Your account was deleted.",
  "password-changed": "Your password was changed. Sign in with the new one.",
  // Set by the app itself when a ban signed the person out of the session a tab still held (lib/session.ts).
  "account-banned": "You were signed out. Your account is banned.",
} as const;

export type NoticeCode = keyof typeof NOTICES;

/** Notices that tell of something that went against the person: shown as an error, not a success. */
const ADVERSE_NOTICES: ReadonlySet<string> = new Set<NoticeCode>(["account-banned"]);

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

export function noticeTone(code: string | undefined): "success" | "error" {
  return code !== undefined && ADVERSE_NOTICES.has(code) ? "error" : "success";
}

export function linkErrorMessage(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(LINK_ERRORS, code) ? LINK_ERRORS[code] : undefined;
}

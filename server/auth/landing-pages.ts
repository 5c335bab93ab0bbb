/** The web app's page a verification link lands on (web/features/auth/routes/email-verified-page.tsx). */
export const EMAIL_VERIFIED_PAGE = "/email-verified";

/**
 * The web app's page the link that confirms a new e-mail address lands on
 * (web/features/account/routes/email-changed-page.tsx).
 */
export const EMAIL_CHANGED_PAGE = "/email-changed";

/** A path of the app's own (`/…`), not another origin's (`//host`, `/\host`): where a landing page may go on to. */
export function isAppPath(value: string): boolean {
  return value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\");
}

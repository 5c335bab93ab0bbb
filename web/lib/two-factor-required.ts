import { ApiError } from "./api-error";

/**
 * An organization that requires a second factor refuses a member without one with 403 TWO_FACTOR_REQUIRED, on any
 * of its routes. Wherever that answer comes from (a page's read, a mutation, the organization switcher), the app
 * takes the person to the account's Security page to set one up, and back:
 *
 *   /account/security?next=<where they were>&reason=two-factor-required
 *
 * `next` is the path (with its query) of the page they were on; the Security page reads it with `safeNextPath`,
 * shows the notice while `reason` is `two-factor-required`, and once a second factor is on offers to go back there.
 */
export const TWO_FACTOR_REQUIRED = "TWO_FACTOR_REQUIRED";
export const TWO_FACTOR_REQUIRED_REASON = "two-factor-required";
const SECURITY_PATH = "/account/security";

export function isTwoFactorRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && error.code === TWO_FACTOR_REQUIRED;
}

/** The Security page's address that says why the person was sent there and where to go back to. */
export function twoFactorSetupHref(next: string): string {
  return `${SECURITY_PATH}?${new URLSearchParams({ next, reason: TWO_FACTOR_REQUIRED_REASON })}`;
}

/**
 * `next` when it is a path of this app ("/organizations/…"), else undefined: never another origin ("//evil.test",
 * "https://…", "/\\evil.test"), so the link back cannot send anyone away.
 */
export function safeNextPath(next: string | null | undefined): string | undefined {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return undefined;
  const url = new URL(next, "http://app.invalid");
  return url.origin === "http://app.invalid" ? `${url.pathname}${url.search}${url.hash}` : undefined;
}

let navigate: (href: string) => void = (href) => window.location.assign(href);

/** The router's navigation, set once it exists (web/main.tsx); until then a full page load. */
export function setTwoFactorNavigation(to: (href: string) => void): void {
  navigate = to;
}

/** Sends the person to set up a second factor, remembering the page they were on; once, not from that page itself. */
export function sendToTwoFactorSetup(location: Pick<Location, "pathname" | "search"> = window.location): void {
  if (location.pathname === SECURITY_PATH) return;
  navigate(twoFactorSetupHref(`${location.pathname}${location.search}`));
}

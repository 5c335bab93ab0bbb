import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from "../../common/account-limits";
import { banExpiryOf } from "../../common/ban-message";
import { formatDateTime } from "./format";

// What people read for errors. Loaded on first need (see `loadErrorSentences` in ./api-error.ts), so the first
// page does not download it.

export const USERNAME_TAKEN_MESSAGE = "That username is already taken. Try another.";

const ACCESS_USERS = "Only platform admins can manage users. Ask a platform admin if you need this.";
const NOT_ALLOWED = "You are not allowed to do this. Ask an administrator if you need it.";
/** Ten wrong second-factor codes in a row lock the account's codes for 15 minutes (better-auth's two-factor plugin). */
const ACCOUNT_LOCKED = "Too many wrong codes were entered for this account, so it is locked for now.";
const TEAMS_NOT_ALLOWED = "Your role does not allow changing or deleting teams. Ask an owner or admin.";
/** A deployment without a billing provider: nothing to pay for, and no plan limits either. */
const BILLING_NOT_SET_UP =
  "Billing is not set up on this deployment: there are no plans to buy, and no plan limits on members or teams.";

/**
 * What people read for each error code the web app can receive: what happened, then what to do. The server's
 * own messages are the spec's, written for developers (`slug is taken`); they never reach the screen. Codes:
 * the spec's catalogue, better-auth's codes the app's screens can meet, and the app's own (common/error-codes.ts).
 * A test fails when one of the catalogued or app codes has no sentence here.
 */
export const ERROR_SENTENCES: Readonly<Record<string, string>> = {
  // Signing in and up.
  INVALID_EMAIL_OR_PASSWORD: "That e-mail or password is not right.",
  INVALID_USERNAME_OR_PASSWORD: "That username or password is not right.",
  INVALID_PASSWORD: "That password is not right.",
  INVALID_EMAIL: "That e-mail address is not valid. Check it and try again.",
  EMAIL_NOT_VERIFIED: "Verify your e-mail address first: we just sent you a new link.",
  USER_ALREADY_EXISTS: "An account with this e-mail address already exists. Use another address.",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "An account with this e-mail address already exists. Use another address.",
  FAILED_TO_CREATE_USER: "Your account could not be created. Try again in a moment.",
  FAILED_TO_CREATE_SESSION: "You could not be signed in. Try again in a moment.",
  FAILED_TO_GET_SESSION: "Your session could not be read. Reload the page and try again.",
  UNEXPECTED_ERROR: "Something went wrong on our side. Try again in a moment.",
  USER_NOT_FOUND: "There is no account for this. Check what you entered, or create an account.",
  // Passwords, links and sessions.
  PASSWORD_TOO_SHORT: "Use at least 8 characters.",
  PASSWORD_TOO_LONG: "Use at most 128 characters.",
  PASSWORD_UNCHANGED: "The new password is the same as your current one. Choose a different password.",
  EMAIL_UNCHANGED: "That is already your e-mail address. Enter the new one.",
  PASSWORD_REQUIRED: "Enter your password to delete your account.",
  SOLE_OWNER: "This account is the only owner of organizations with other members. Make another member an owner first.",
  PASSWORD_ALREADY_SET: "Your account already has a password. Change it in Account settings › Password.",
  USER_ALREADY_HAS_PASSWORD: "Your account has a password. Enter it to continue.",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "Your account has no password yet. Set one from Account settings › Password.",
  INVALID_TOKEN: "This link is invalid or has expired. Ask for a new one.",
  TOKEN_EXPIRED: "This link has expired. Ask for a new one.",
  SESSION_EXPIRED: "For your security, sign in again before doing this.",
  SESSION_NOT_FRESH: "For your security, sign in again before doing this.",
  FRESH_AUTHENTICATION_REQUIRED: "For your security, confirm it is you before doing this, then try again.",
  EMAIL_ALREADY_VERIFIED: "Your e-mail address is already verified. You can sign in.",
  INVALID_USER: "This link belongs to another account. Sign out, then open the link again.",
  INVALID_ORIGIN: "This request came from a page Atrium does not trust. Open Atrium directly and try again.",
  MISSING_OR_NULL_ORIGIN: "This request came from a page Atrium does not trust. Open Atrium directly and try again.",
  INVALID_CALLBACK_URL: "That return address is not part of Atrium. Open Atrium directly and try again.",
  INVALID_REDIRECT_URL: "That return address is not part of Atrium. Open Atrium directly and try again.",
  // Sign-in methods (providers).
  SOCIAL_ACCOUNT_ALREADY_LINKED: "That provider account is already connected to another Atrium account.",
  LINKED_ACCOUNT_ALREADY_EXISTS: "That provider account is already connected.",
  FAILED_TO_UNLINK_LAST_ACCOUNT: "This is your only way to sign in. Set a password or connect another provider first.",
  ACCOUNT_NOT_FOUND: "That sign-in method is no longer connected. Reload the page.",
  PROVIDER_NOT_FOUND: "That sign-in provider is not available here.",
  PROVIDER_UNAVAILABLE: "That sign-in provider does not answer right now. Try again soon, or sign in another way.",
  // Usernames.
  USERNAME_IS_ALREADY_TAKEN: USERNAME_TAKEN_MESSAGE,
  USERNAME_TOO_SHORT: `Use at least ${USERNAME_MIN_LENGTH} characters.`,
  USERNAME_TOO_LONG: `Use at most ${USERNAME_MAX_LENGTH} characters.`,
  INVALID_USERNAME: "Use only letters, digits, dots and underscores.",
  INVALID_DISPLAY_USERNAME: "Use only letters, digits, dots and underscores.",
  // Organizations.
  NO_ACTIVE_ORGANIZATION: "No organization is selected. Choose one from your organizations, then try again.",
  ORGANIZATION_NOT_FOUND:
    "This organization no longer exists, or you are not part of it. Go back to your organizations.",
  ORGANIZATION_ALREADY_EXISTS: "An organization with this slug already exists. Choose another slug.",
  ORGANIZATION_SLUG_ALREADY_TAKEN: "This slug is already used by another organization. Choose another one.",
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION:
    "You cannot create organizations on this deployment. Ask an administrator.",
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS:
    "You have reached the most organizations you may have. Leave or delete one first.",
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: "Only owners and admins can change this organization.",
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION: "Only owners can delete this organization.",
  ORGANIZATION_DELETION_DISABLED: "Deleting organizations is switched off on this deployment.",
  INVALID_METADATA: "The organization's extra data is not valid. Check it and try again.",
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION:
    "That person is not a member of this organization (any more). Reload the page.",
  YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION:
    "You are not a member of this organization. Ask an owner for an invitation.",
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: "That person is already a member of this organization.",
  MEMBER_NOT_FOUND: "That member is no longer in this organization. Reload the page.",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER:
    "You are the only owner, so you cannot leave. Make another member an owner first, or delete the organization.",
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER:
    "The organization needs an owner. Make another member an owner first.",
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER:
    "Your role does not allow removing this member. Only an owner can remove an owner.",
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: "Your role does not allow changing this member's role. Ask an owner.",
  ROLE_NOT_FOUND: "That role does not exist. Choose one of the roles offered.",
  // Invitations.
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION:
    "This person already has a pending invitation. Resend or cancel it from the invitations list.",
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION:
    "Your role does not allow inviting people. Ask an owner or admin.",
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE:
    "Your role does not allow inviting someone with that role. Choose a lower role.",
  INVITATION_NOT_FOUND: "This invitation no longer exists: it was cancelled, used or has expired. Ask for a new one.",
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION:
    "This invitation was sent to another e-mail address. Sign in with that address.",
  EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION:
    "Verify your e-mail address first, then open the invitation again.",
  EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION: "Verify your e-mail address first, then open the invitation again.",
  YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION:
    "Your role does not allow cancelling this invitation. Ask an owner or admin.",
  INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION:
    "Whoever invited you has left the organization. Ask for a new invitation.",
  INVITATION_LIMIT_REACHED: "This organization cannot send more invitations now. Cancel pending ones first.",
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: "This organization has no room for more members. An owner can add seats.",
  // Teams.
  TEAM_NOT_FOUND: "That team no longer exists. Reload the page.",
  TEAM_ALREADY_EXISTS: "A team with this name already exists. Choose another name.",
  INVALID_TEAM_NAME: "Give the team a name.",
  TEAM_NAME_ALREADY_TAKEN: "This organization already has a team with this name. Choose another one.",
  UNABLE_TO_REMOVE_LAST_TEAM: "An organization keeps at least one team. Create another team before deleting this one.",
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM: "Your role does not allow creating teams. Ask an owner or admin.",
  YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION:
    "Your role does not allow creating teams. Ask an owner or admin.",
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM: TEAMS_NOT_ALLOWED,
  YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION: TEAMS_NOT_ALLOWED,
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM:
    "You cannot delete a team you belong to, or your role does not allow it. Ask an owner or admin.",
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: "This organization has as many teams as it may. Delete a team first.",
  TEAM_MEMBER_LIMIT_REACHED: "This team is full. Remove a member from it first.",
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: "That person is not in this team (any more). Reload the page.",
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER:
    "Your role does not allow adding people to teams. Ask an owner or admin.",
  YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER:
    "Your role does not allow removing people from teams. Ask an owner or admin.",
  // The billing rules refuse invitations, acceptances and new teams beyond the plan's limits (the forms word it per case).
  PLAN_LIMIT_REACHED:
    "The organization's plan limit is reached. An owner or admin can upgrade the plan or add seats in Settings › Billing.",
  // The platform-admin console.
  YOU_CANNOT_CHANGE_YOUR_OWN_ROLE: "You cannot change your own platform role. Ask another platform admin.",
  LAST_PLATFORM_ADMIN: "This is the last platform admin. Make someone else a platform admin first.",
  ADMIN_EMAILS_ADMIN: "This admin's e-mail is listed in the ADMIN_EMAILS setting. Remove it there first.",
  YOU_CANNOT_IMPERSONATE_ADMINS: "Platform admins cannot be impersonated.",
  YOU_CANNOT_BAN_YOURSELF: "You cannot ban yourself.",
  YOU_CANNOT_REMOVE_YOURSELF: "You cannot delete your own account here. Use Account settings › Delete account.",
  YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE: ACCESS_USERS,
  YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS: ACCESS_USERS,
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS: ACCESS_USERS,
  YOU_ARE_NOT_ALLOWED_TO_BAN_USERS: ACCESS_USERS,
  YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS: ACCESS_USERS,
  YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS: ACCESS_USERS,
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD: ACCESS_USERS,
  YOU_ARE_NOT_ALLOWED_TO_GET_USER: ACCESS_USERS,
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS: ACCESS_USERS,
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS: ACCESS_USERS,
  YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: ACCESS_USERS,
  // Second factors.
  INVALID_CODE: "That code is not right. Enter the code your authenticator app shows now.",
  INVALID_PASSKEY: "That passkey could not confirm it is you. Try again, or use one of this account's own passkeys.",
  INVALID_BACKUP_CODE: "That backup code is not right, or it was already used.",
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: "Too many wrong codes. Sign in again with your password.",
  // Without the lock's end (see accountLockedMessage): the lock's full length.
  ACCOUNT_TEMPORARILY_LOCKED: `${ACCOUNT_LOCKED} Wait 15 minutes, then sign in again.`,
  INVALID_TWO_FACTOR_COOKIE: "This sign-in has ended. Sign in again with your password.",
  TOTP_ALREADY_ENABLED: "Two-factor authentication is already on. Reload the page.",
  TOTP_NOT_ENABLED: "Two-factor authentication is not set up. Reload the page.",
  TWO_FACTOR_NOT_ENABLED: "Two-factor authentication is not on. Reload the page.",
  // The app's own API (common/error-codes.ts).
  VALIDATION_ERROR: "Some of what you entered is not valid. Check the form and try again.",
  INVALID_JSON: "The request could not be read. Reload the page and try again.",
  UNSUPPORTED_MEDIA_TYPE: "The request could not be read. Reload the page and try again.",
  PAYLOAD_TOO_LARGE: "That is too much to send at once (at most 1 MB). Shorten it and try again.",
  UNAUTHORIZED: "Your session has ended. Sign in again to continue.",
  FORBIDDEN: NOT_ALLOWED,
  NOT_FOUND: "We could not find this. It may have been deleted; reload the page.",
  CONFLICT: "Someone changed this at the same moment. Reload the page, then try again.",
  TOO_MANY_REQUESTS: "Too many attempts. Wait a minute, then try again.",
  SERVICE_UNAVAILABLE: "The service is unavailable for a moment. Nothing was changed; try again shortly.",
  BAD_GATEWAY:
    "A service Atrium depends on refused this. Nothing was changed; try again, or contact support if it keeps happening.",
  UPSTREAM_TIMEOUT:
    "A service Atrium depends on did not answer in time. Reload the page in a moment: if nothing changed, try again.",
  INTERNAL_ERROR: "Something went wrong on our side. Try again in a moment.",
  WEBHOOK_VERIFICATION_FAILED: "The webhook's signature did not verify.",
  BILLING_NOT_CONFIGURED: BILLING_NOT_SET_UP,
  // Passkeys: the server's refusals (@better-auth/passkey), then the browser's, which its client passes on.
  PASSKEY_NOT_FOUND: "This passkey is not registered to any account here. Sign in another way, then add it again.",
  AUTHENTICATION_FAILED: "The passkey could not be checked. Try again, or sign in another way.",
  CHALLENGE_NOT_FOUND: "The passkey request expired. Try again.",
  FAILED_TO_VERIFY_REGISTRATION: "The passkey could not be added. Try again, or use another device.",
  ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY: "The passkey prompt was closed or timed out. Try again when you are ready.",
  ERROR_CEREMONY_ABORTED: "The passkey prompt was closed or timed out. Try again when you are ready.",
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "This device already holds a passkey for your account.",
  // Second factors.
  TWO_FACTOR_REQUIRED:
    "This organization requires a second factor: an authenticator app (Account settings › Security) or a passkey.",
  OWN_SECOND_FACTOR_REQUIRED:
    "Set up a second factor for your own account first: requiring one without it would lock you out.",
  NO_SECOND_FACTOR: "This user has no second factor to reset.",
  // Enterprise SSO.
  SSO_ADMIN_REQUIRED: "Only the organization's owners and admins can manage its SSO.",
  SSO_PROVIDER_NOT_FOUND: "This SSO provider no longer exists. Reload the page.",
  SSO_DOMAIN_TAKEN: "Another organization has already verified this domain. Contact support if it is yours.",
  SSO_DOMAIN_ALREADY_VERIFIED: "This domain is already verified.",
  SSO_DNS_RECORD_NOT_FOUND:
    "The TXT record was not found. Publish it at your DNS host, wait a few minutes for it to spread, then try again.",
  SSO_DNS_UNAVAILABLE: "The DNS servers did not answer. Try again in a moment.",
  SSO_VERIFIED_PROVIDER_REQUIRED: "Verify the domain of an SSO provider before requiring SSO.",
  SSO_SIGN_IN_TEST_REQUIRED:
    "Test a verified connection first: sign in through it once, so that nobody is locked out, then require SSO.",
  SSO_REQUIRED: "Your organization signs in with SSO. Continue with SSO instead of a password.",
  SSO_EMAIL_OUTSIDE_DOMAIN:
    "This SSO connection signs in addresses on its organization's domain only. Sign in with your work address.",
  // Directory sync (SCIM).
  SCIM_ADMIN_REQUIRED: "Only the organization's owners and admins can manage its directory sync.",
  SCIM_TOKEN_NOT_FOUND: "This token no longer exists. Reload the page.",
  SSO_SAML_METADATA_UNREADABLE: "The IdP metadata could not be read from that URL. Check it, or paste the XML instead.",
  SSO_SAML_SIGNING_CONFLICT:
    "The identity provider's metadata and this connection disagree on signing sign-in requests. Make them match.",
  SSO_SAML_RESPONSE_REFUSED: "Your identity provider's answer was refused. Sign in again from the start.",
  SSO_DOMAIN_NOT_VERIFIED: "Single sign-on is not ready yet: its domain is not verified. Ask your administrator.",
  // Outbound webhooks.
  WEBHOOK_ADMIN_REQUIRED: "Only the organization's owners and admins can manage its webhooks.",
  WEBHOOK_NOT_FOUND: "This webhook endpoint no longer exists. Reload the page.",
  WEBHOOK_DELIVERY_NOT_FOUND: "This delivery no longer exists. Reload the page.",
  WEBHOOK_URL_REFUSED: "This URL points to a private or reserved address. Webhooks are sent to public addresses only.",
  WEBHOOK_URL_UNRESOLVABLE: "The URL's host name could not be found. Check it and try again.",
  // Organization API keys.
  API_KEY_INVALID: "The API key is invalid, expired or revoked.",
  API_KEY_SCOPE_MISSING: "This API key does not have the scope this call needs.",
  API_KEY_NOT_ACCEPTED: "This can only be done by a signed-in person, not with an API key.",
  API_KEY_OTHER_ORGANIZATION: "This API key belongs to another organization.",
  API_KEY_ADMIN_REQUIRED: "Only the organization's owners and admins can manage its API keys.",
  API_KEY_NOT_FOUND: "This API key no longer exists. Reload the page.",
};

/**
 * The billing screens word some of the same codes for their readers (the payment provider, who may change billing):
 * the organization's screens, and the platform admins' console, where the reader is staff. Same codes, same table's
 * keys; only these sentences differ.
 */
const BILLING_SENTENCES: Readonly<Record<string, string>> = {
  BILLING_NOT_CONFIGURED: BILLING_NOT_SET_UP,
  PLAN_LIMIT_REACHED: "Your plan's limit is reached. An owner can make room in Settings › Billing.",
  FORBIDDEN: "Only owners and admins can change billing.",
  UNAUTHORIZED: "Your session has ended. Sign in again to continue.",
  NOT_FOUND: "We could not find this billing information. Reload the page and try again.",
  CONFLICT: "Billing changed in the meantime. Reload the page to see the current plan, then try again.",
  TOO_MANY_REQUESTS: "Too many attempts. Wait a minute, then try again.",
  SERVICE_UNAVAILABLE: "The payment provider is not answering right now. Nothing was changed; try again in a moment.",
  BAD_GATEWAY:
    "The payment provider did not accept this change. Nothing was changed; try again, or contact support if it " +
    "keeps happening.",
  UPSTREAM_TIMEOUT:
    "The payment provider did not answer in time. Reload the page in a moment: if the change is not there, try again " +
    "(it is never made twice).",
  VALIDATION_ERROR: "Some details are not right. Check them and try again.",
  INTERNAL_ERROR: "Something went wrong on our side. Nothing was changed; try again in a moment.",
};

const ADMIN_BILLING_SENTENCES: Readonly<Record<string, string>> = {
  ...BILLING_SENTENCES,
  FORBIDDEN: "Only platform admins can do this.",
  NOT_FOUND: "This organization no longer exists, or has no billing record.",
  BAD_GATEWAY:
    "The payment provider refused this request. Nothing was changed; check the order in the provider's dashboard.",
};

/** A VALIDATION_ERROR whose `details.fieldErrors` names the discount code: the server did not know the code. */
export const DISCOUNT_CODE_REFUSED_MESSAGE = "That discount code is not valid. Check it, or leave the field empty.";

/** The code a billing answer without a known code is worded as, by its status. */
function billingCodeForStatus(status: number): string {
  if (status === 401) return "UNAUTHORIZED";
  if (status === 403) return "FORBIDDEN";
  if (status === 404) return "NOT_FOUND";
  if (status === 409) return "CONFLICT";
  if (status === 429) return "TOO_MANY_REQUESTS";
  if (status === 502) return "BAD_GATEWAY";
  if (status === 503 || status === 504) return "SERVICE_UNAVAILABLE";
  return status >= 500 ? "INTERNAL_ERROR" : "VALIDATION_ERROR";
}

/** What a billing screen's reader is told for a billing endpoint's refusal: its code's sentence, or its status's. */
export function billingErrorSentence(
  error: { status: number; code?: string },
  audience: "organization" | "admin",
): string {
  const table = audience === "admin" ? ADMIN_BILLING_SENTENCES : BILLING_SENTENCES;
  if (error.code && Object.hasOwn(table, error.code)) return table[error.code]!;
  if (audience === "admin" && error.status === 403) return ADMIN_BILLING_SENTENCES.FORBIDDEN!;
  return table[billingCodeForStatus(error.status)]!;
}

/** For a code nobody worded (a new one): a sentence by status, never the server's own text. */
function sentenceForStatus(status: number): string {
  if (status === 401) return ERROR_SENTENCES.UNAUTHORIZED!;
  if (status === 403) return NOT_ALLOWED;
  if (status === 404) return ERROR_SENTENCES.NOT_FOUND!;
  if (status === 409) return ERROR_SENTENCES.CONFLICT!;
  if (status === 413) return ERROR_SENTENCES.PAYLOAD_TOO_LARGE!;
  if (status >= 400 && status < 500) return "That could not be done. Check what you entered and try again.";
  return "Something went wrong. Please try again.";
}

/**
 * Ten wrong second-factor codes in a row lock the account's codes (server/auth/two-factor.ts): what happened, and when
 * to try again, from the answer's `Retry-After` seconds (the lock's end), else the lock's full length.
 */
export function accountLockedMessage(retryAfterSeconds: number | undefined): string {
  if (retryAfterSeconds === undefined || !Number.isFinite(retryAfterSeconds) || retryAfterSeconds <= 0)
    return ERROR_SENTENCES.ACCOUNT_TEMPORARILY_LOCKED!;
  return `${ACCOUNT_LOCKED} Sign in again ${waitWords(Math.ceil(retryAfterSeconds))}.`;
}

/** "in 42 seconds", "in 3 minutes": seconds up to 60, then minutes, rounded up. */
function waitWords(seconds: number): string {
  if (seconds <= 60) return `in ${seconds} ${seconds === 1 ? "second" : "seconds"}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}

/** "Too many attempts. Try again in 42 seconds." (up to 60; beyond, "in 3 minutes"), from the answer's `Retry-After` seconds. */
export function rateLimitMessage(retryAfterSeconds: number | undefined): string {
  if (retryAfterSeconds === undefined || !Number.isFinite(retryAfterSeconds) || retryAfterSeconds <= 0)
    return ERROR_SENTENCES.TOO_MANY_REQUESTS!;
  return `Too many attempts. Try again ${waitWords(Math.ceil(retryAfterSeconds))}.`;
}

/**
 * What a person reads for an error code: the table's sentence, or the status's. A banned account is told until
 * when (the server's message carries the ban's end as an ISO instant, `bannedUserMessage`; only that instant is
 * read from it, never its words), a rate-limited one how long to wait.
 */
export function errorSentence(error: { status: number; code?: string; message?: string; retryAfter?: number }): string {
  if (error.code === "ACCOUNT_TEMPORARILY_LOCKED") return accountLockedMessage(error.retryAfter);
  if (error.status === 429) return rateLimitMessage(error.retryAfter);
  if (error.code === "BANNED_USER") return bannedAccountMessage(banExpiryOf(error.message));
  return (
    (error.code && Object.hasOwn(ERROR_SENTENCES, error.code) ? ERROR_SENTENCES[error.code] : undefined) ??
    sentenceForStatus(error.status)
  );
}

/** What a banned person is told: until when, in their own time, when the ban has an end. */
export function bannedAccountMessage(banExpires: Date | null): string {
  const ban = banExpires ? `This account is banned until ${formatDateTime(banExpires)}.` : "This account is banned.";
  return `${ban} Contact the administrators if you think this is a mistake.`;
}

/**
 * The one list of error codes the app's own endpoints answer with. Bodies are `{ code, message }`,
 * the same shape better-auth uses, so the web client handles a single error shape; the server adds the
 * request's id (`requestId`, also in the `X-Request-Id` header) for support and the logs.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: "VALIDATION_ERROR",
  INVALID_JSON: "INVALID_JSON",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  /** A write from a page of another origin than the app's own and TRUSTED_ORIGINS; better-auth's code and message. */
  INVALID_ORIGIN: "INVALID_ORIGIN",
  /** A cookie-carrying write that says neither its Origin nor its Referer; better-auth's code and message. */
  MISSING_OR_NULL_ORIGIN: "MISSING_OR_NULL_ORIGIN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  SERVICE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
  BAD_GATEWAY: "BAD_GATEWAY",
  /** A service the app depends on did not answer in time: the request may have reached it, so it may have acted. */
  UPSTREAM_TIMEOUT: "UPSTREAM_TIMEOUT",
  INTERNAL_ERROR: "INTERNAL_ERROR",
  /** The organization's plan does not include what was asked (more members, more teams, a feature). */
  PLAN_LIMIT_REACHED: "PLAN_LIMIT_REACHED",
  /**
   * The billing endpoints of a deployment without a billing provider (no POLAR_ACCESS_TOKEN, no sandbox): not a
   * passing outage but how it is set up, so 404, which no client retries.
   */
  BILLING_NOT_CONFIGURED: "BILLING_NOT_CONFIGURED",
  /** A webhook delivery whose signature headers do not verify; the message is the spec's. */
  WEBHOOK_VERIFICATION_FAILED: "WEBHOOK_VERIFICATION_FAILED",
  /** A configured sign-in provider whose discovery did not answer at start (server/auth/social-sign-in.ts). */
  PROVIDER_UNAVAILABLE: "PROVIDER_UNAVAILABLE",
  /**
   * A sensitive action (deleting the account, changing its e-mail or password, turning a second factor off, deleting
   * an organization, changing its plan) asked of a session without a sign-in or re-check in the last 10 minutes
   * (server/auth/fresh-authentication.ts). Its `details` say how this person can re-check.
   */
  FRESH_AUTHENTICATION_REQUIRED: "FRESH_AUTHENTICATION_REQUIRED",
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * Every code the server's domain code may throw (common/domain-error.ts): the app's own, the rules' below, and the
 * spec's catalogue of better-auth codes.
 */
export type CatalogueCode =
  | ErrorCode
  | keyof typeof ORGANIZATION_ERROR_CODES
  | keyof typeof PLATFORM_ADMIN_ERROR_CODES
  | keyof typeof ACCOUNT_ERROR_CODES
  | keyof typeof REAUTHENTICATION_ERROR_CODES
  | keyof typeof SSO_ERROR_CODES
  | keyof typeof SCIM_ERROR_CODES
  | keyof typeof WEBHOOK_ERROR_CODES
  | keyof typeof API_KEY_ERROR_CODES
  | SpecCatalogueCode;

/**
 * The status of every catalogued code. The spec's codes have the spec's status (server/auth/spec-errors.ts answers
 * better-auth's own refusals with them too).
 */
export const ERROR_STATUS: Record<CatalogueCode, number> = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  INVALID_ORIGIN: 403,
  MISSING_OR_NULL_ORIGIN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
  BAD_GATEWAY: 502,
  UPSTREAM_TIMEOUT: 504,
  INTERNAL_ERROR: 500,
  PLAN_LIMIT_REACHED: 403,
  BILLING_NOT_CONFIGURED: 404,
  WEBHOOK_VERIFICATION_FAILED: 400,
  PROVIDER_UNAVAILABLE: 503,
  INVALID_METADATA: 400,
  INVALID_TEAM_NAME: 400,
  TEAM_NAME_ALREADY_TAKEN: 400,
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: 400,
  YOU_CANNOT_CHANGE_YOUR_OWN_ROLE: 400,
  LAST_PLATFORM_ADMIN: 400,
  ADMIN_EMAILS_ADMIN: 400,
  PASSWORD_REQUIRED: 400,
  PASSWORD_UNCHANGED: 400,
  EMAIL_UNCHANGED: 400,
  SOLE_OWNER: 400,
  INVALID_USERNAME_OR_PASSWORD: 401,
  EMAIL_NOT_VERIFIED: 403,
  UNEXPECTED_ERROR: 500,
  USERNAME_IS_ALREADY_TAKEN: 422,
  USERNAME_TOO_SHORT: 422,
  USERNAME_TOO_LONG: 422,
  INVALID_USERNAME: 422,
  NO_ACTIVE_ORGANIZATION: 400,
  MEMBER_NOT_FOUND: 400,
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: 400,
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: 401,
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: 403,
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS: 403,
  ORGANIZATION_ALREADY_EXISTS: 400,
  ORGANIZATION_NOT_FOUND: 400,
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: 400,
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: 403,
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION: 403,
  TEAM_NOT_FOUND: 400,
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM: 403,
  YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION: 403,
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM: 403,
  UNABLE_TO_REMOVE_LAST_TEAM: 400,
  ORGANIZATION_SLUG_ALREADY_TAKEN: 400,
  FAILED_TO_CREATE_SESSION: 500,
  YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE: 403,
  YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS: 403,
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS: 403,
  YOU_ARE_NOT_ALLOWED_TO_BAN_USERS: 403,
  YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS: 403,
  YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS: 403,
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD: 403,
  YOU_ARE_NOT_ALLOWED_TO_GET_USER: 403,
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS: 403,
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS: 403,
  YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: 403,
  FRESH_AUTHENTICATION_REQUIRED: 403,
  INVALID_PASSWORD: 400,
  INVALID_CODE: 400,
  INVALID_PASSKEY: 400,
  INVALID_BACKUP_CODE: 400,
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 400,
  INVALID_TWO_FACTOR_COOKIE: 401,
  ACCOUNT_TEMPORARILY_LOCKED: 429,
  TOTP_ALREADY_ENABLED: 400,
  TOTP_NOT_ENABLED: 400,
  TWO_FACTOR_NOT_ENABLED: 400,
  TWO_FACTOR_REQUIRED: 403,
  OWN_SECOND_FACTOR_REQUIRED: 400,
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: 403,
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: 403,
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: 400,
  INVITATION_LIMIT_REACHED: 403,
  INVITATION_NOT_FOUND: 400,
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: 400,
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: 403,
  EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION: 403,
  NO_SECOND_FACTOR: 400,
  SSO_ADMIN_REQUIRED: 403,
  SSO_PROVIDER_NOT_FOUND: 404,
  SSO_DOMAIN_TAKEN: 409,
  SSO_DOMAIN_ALREADY_VERIFIED: 409,
  SSO_DNS_RECORD_NOT_FOUND: 400,
  SSO_DNS_UNAVAILABLE: 502,
  SSO_VERIFIED_PROVIDER_REQUIRED: 400,
  SSO_SIGN_IN_TEST_REQUIRED: 409,
  SSO_DOMAIN_JOIN_NEEDS_VERIFIED_PROVIDER: 400,
  SSO_DOMAIN_JOIN_NOT_OFFERED: 403,
  SSO_ALREADY_A_MEMBER: 409,
  SSO_REQUIRED: 403,
  SSO_EMAIL_OUTSIDE_DOMAIN: 403,
  SSO_SAML_METADATA_UNREADABLE: 400,
  SSO_SAML_SIGNING_CONFLICT: 400,
  SSO_SAML_RESPONSE_REFUSED: 400,
  SSO_DOMAIN_NOT_VERIFIED: 403,
  SCIM_ADMIN_REQUIRED: 403,
  SCIM_TOKEN_NOT_FOUND: 404,
  SCIM_UNAUTHORIZED: 401,
  SCIM_USER_NOT_FOUND: 404,
  SCIM_GROUP_NOT_FOUND: 404,
  SCIM_USER_NAME_TAKEN: 409,
  SCIM_USER_ALREADY_PROVISIONED: 409,
  SCIM_GROUP_NAME_TAKEN: 409,
  SCIM_INVALID_FILTER: 400,
  SCIM_INVALID_VALUE: 400,
  SCIM_INVALID_PATH: 400,
  SCIM_SOLE_OWNER: 409,
  WEBHOOK_ADMIN_REQUIRED: 403,
  WEBHOOK_NOT_FOUND: 404,
  WEBHOOK_DELIVERY_NOT_FOUND: 404,
  WEBHOOK_URL_REFUSED: 400,
  WEBHOOK_URL_UNRESOLVABLE: 400,
  API_KEY_INVALID: 401,
  API_KEY_SCOPE_MISSING: 403,
  API_KEY_NOT_ACCEPTED: 403,
  API_KEY_OTHER_ORGANIZATION: 403,
  API_KEY_ADMIN_REQUIRED: 403,
  API_KEY_NOT_FOUND: 404,
};

export type ErrorBody = { code: string; message: string; details?: unknown; requestId?: string };

/** Code → message, shaped as better-auth's `defineErrorCodes` shapes its own: `{ code, message }` per code. */
function defineErrorCodes<const T extends Record<string, string>>(
  codes: T,
): { readonly [K in keyof T & string]: { readonly code: K; readonly message: T[K] } } {
  return Object.fromEntries(Object.entries(codes).map(([code, message]) => [code, { code, message }])) as never;
}

/**
 * The refusals of the organization rules (the organizations module's better-auth plugin). Codes better-auth
 * also uses keep its messages, so an answer reads the same whichever of the two refused.
 */
export const ORGANIZATION_ERROR_CODES = defineErrorCodes({
  INVALID_METADATA: "metadata is invalid",
  INVALID_TEAM_NAME: "team name must be at least 1 character",
  /** Another team of the organization has this name (compared trimmed and without case). */
  TEAM_NAME_ALREADY_TAKEN: "a team with this name already exists in this organization",
  ORGANIZATION_NOT_FOUND: "Organization not found",
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: "User is not a member of the organization",
  /** A pending invitation of the address that another request created at the same moment (its unique index). */
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: "User is already invited to this organization",
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: "You are not allowed to delete this member",
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM: "You are not allowed to delete this team",
  /**
   * The organization requires a second factor (its security policy) and the caller has none: the web app sends them
   * to set one up (/account/security) and back.
   */
  TWO_FACTOR_REQUIRED: "This organization requires a second factor: set one up in your account's security settings",
  /** Turning the policy on without a second factor of one's own would lock the caller out at once. */
  OWN_SECOND_FACTOR_REQUIRED: "Set up a second factor for your own account before requiring one for the organization",
  // better-auth's refusals, answered the same by the writes an API key makes (./operations/), which better-auth does
  // not run: the spec's message where the spec catalogues the code, else better-auth's.
  MEMBER_NOT_FOUND: "member not found",
  TEAM_NOT_FOUND: "team not found",
  UNABLE_TO_REMOVE_LAST_TEAM: "unable to remove the last team",
  /** An owner's role, or the owner role, changed by someone who is no owner (an API key never is one). */
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER: "You are not allowed to update this member",
  YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE: "You are not allowed to invite a user with this role",
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: "User is already a member of this organization",
  /** The organization has 100 pending invitations (better-auth's limit). */
  INVITATION_LIMIT_REACHED: "Invitation limit reached",
  INVITATION_NOT_FOUND: "Invitation not found",
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: "User is not a member of the team",
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: "You are not the recipient of the invitation",
  EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION:
    "Email verification required to view or list invitations for the session email",
});

/** The platform-admin rules better-auth's admin plugin does not apply itself (the admin module's plugin). */
export const PLATFORM_ADMIN_ERROR_CODES = defineErrorCodes({
  YOU_CANNOT_CHANGE_YOUR_OWN_ROLE: "You cannot change your own platform role",
  LAST_PLATFORM_ADMIN: "The last platform admin cannot be demoted, banned or deleted",
  ADMIN_EMAILS_ADMIN: "This user is a platform admin through ADMIN_EMAILS: remove the address from that setting first",
  /** An admin reset of second factors for a user who has none. */
  NO_SECOND_FACTOR: "This user has no second factor to reset",
});

/** The account rules better-auth does not apply itself (server/auth/account-rules.ts). */
export const ACCOUNT_ERROR_CODES = defineErrorCodes({
  PASSWORD_REQUIRED: "Enter your password to delete your account",
  PASSWORD_UNCHANGED: "The new password must differ from the current password",
  /** A change of e-mail to the address the account already has (better-auth's own refusal carries no code). */
  EMAIL_UNCHANGED: "The new e-mail address is the one the account already has",
  /**
   * Deleting an account (the person's own, or an admin's remove-user) that is the only owner of organizations with
   * other members: its `details` lists them ({ id, name, slug }), so the screen can offer a transfer or a deletion.
   */
  SOLE_OWNER: "Transfer ownership or delete these organizations first",
});

/**
 * Enterprise SSO's refusals (server/modules/sso, docs/sso.md). Outsiders and members get the same answer as each
 * other on an organization's SSO, so neither learns more than that they may not manage it.
 */
export const SSO_ERROR_CODES = defineErrorCodes({
  SSO_ADMIN_REQUIRED: "Only the organization's owners and admins can manage its SSO",
  SSO_PROVIDER_NOT_FOUND: "SSO provider not found",
  /** Another organization verified this domain first: a domain signs in through one organization's provider. */
  SSO_DOMAIN_TAKEN: "This domain is already verified by another organization",
  SSO_DOMAIN_ALREADY_VERIFIED: "This domain is already verified",
  /** The TXT record is missing or holds another value; `details` names the record to publish. */
  SSO_DNS_RECORD_NOT_FOUND:
    "The TXT record was not found: publish it at your DNS host, wait for it to spread, then try again",
  SSO_DNS_UNAVAILABLE: "The DNS servers did not answer: try again in a moment",
  /** Requiring SSO without a verified provider would leave members no way in but the owners' break-glass path. */
  SSO_VERIFIED_PROVIDER_REQUIRED: "Verify the domain of an SSO provider before requiring SSO",
  /**
   * Requiring SSO before anyone signed in through a verified provider (since it was registered or last changed):
   * a connection that does not work would leave members no way in. A test sign-in through it comes first.
   */
  SSO_SIGN_IN_TEST_REQUIRED: "Sign in through a verified SSO provider once, as a test, before requiring SSO",
  /** Joining by verified domain needs one too: it is the domain the organization proved it owns. */
  SSO_DOMAIN_JOIN_NEEDS_VERIFIED_PROVIDER:
    "Verify the domain of an SSO provider before letting people on it join without an invitation",
  /** The organization does not let this person join by domain (off, another domain, or an unverified address). */
  SSO_DOMAIN_JOIN_NOT_OFFERED: "This organization can be joined by invitation only",
  SSO_ALREADY_A_MEMBER: "You are already a member of this organization",
  /**
   * A password sign-in or sign-up with an address on a domain whose organization requires SSO; `details` says where
   * to go: `{ organizationSlug, organizationName }` for `POST /api/auth/sign-in/sso`, and the app's `signInUrl`.
   */
  SSO_EMAIL_OUTSIDE_DOMAIN: "This SSO connection signs in addresses on its organization's verified domain only",
  SSO_REQUIRED: "Your organization signs in with SSO: continue with SSO instead of a password",
  /** A SAML provider registered by its IdP metadata URL, which could not be read; `details.reason` says why. */
  SSO_SAML_METADATA_UNREADABLE: "The IdP metadata could not be read from that URL",
  /**
   * A SAML provider whose IdP metadata wants signed sign-in requests (`WantAuthnRequestsSigned`) when
   * `authnRequestsSigned` is off, or the reverse: no sign-in could start (samlify refuses to build the request).
   * `details` has both values.
   */
  SSO_SAML_SIGNING_CONFLICT: "The IdP metadata and authnRequestsSigned disagree on signing sign-in requests",
  /**
   * The Assertion Consumer Service refused a SAML response (a bad signature, expired, replayed, for another service
   * provider or address, answering no request of ours, or hostile XML). The person's browser posted it, so it is
   * sent to the sign-in error page with this code (`/auth/error?error=…`, 303); the reason is logged. No session.
   */
  SSO_SAML_RESPONSE_REFUSED: "The SAML response was refused: sign in again from your identity provider",
  /** A sign-in through a provider whose domain is not verified yet; sent to the sign-in error page like the above. */
  SSO_DOMAIN_NOT_VERIFIED: "Sign-in through this SSO provider waits for its domain to be verified",
});

/** Outbound webhooks' refusals (server/modules/webhooks, docs/webhooks.md). */
export const WEBHOOK_ERROR_CODES = defineErrorCodes({
  WEBHOOK_ADMIN_REQUIRED: "Only the organization's owners and admins can manage its webhooks",
  WEBHOOK_NOT_FOUND: "Webhook endpoint not found",
  WEBHOOK_DELIVERY_NOT_FOUND: "Webhook delivery not found",
  /**
   * The URL's host is, or resolves to, an address webhooks never reach (link-local, a cloud metadata service) or, in
   * production, a private or loopback one; `details.address` names it.
   */
  WEBHOOK_URL_REFUSED: "This URL points to a private or reserved address: webhooks are sent to public addresses only",
  WEBHOOK_URL_UNRESOLVABLE: "The URL's host name could not be resolved: check it and try again",
});

/**
 * Directory sync's refusals (server/modules/scim, docs/scim.md). The SCIM endpoints answer them in the SCIM error
 * schema (RFC 7644 section 3.12) with the `scimType` the module gives each; the token settings answer `{ code, message }`.
 */
export const SCIM_ERROR_CODES = defineErrorCodes({
  SCIM_ADMIN_REQUIRED: "Only the organization's owners and admins can manage its directory sync",
  SCIM_TOKEN_NOT_FOUND: "SCIM token not found",
  /** No bearer token, an unknown one, or a revoked one: the directory is told nothing more. */
  SCIM_UNAUTHORIZED: "The SCIM bearer token is missing, revoked or not valid",
  SCIM_USER_NOT_FOUND: "User not found",
  SCIM_GROUP_NOT_FOUND: "Group not found",
  SCIM_USER_NAME_TAKEN: "A user with this userName is already provisioned in this organization",
  /** The person (found by e-mail address) is already provisioned under another userName. */
  SCIM_USER_ALREADY_PROVISIONED: "This person is already provisioned in this organization under another userName",
  SCIM_GROUP_NAME_TAKEN: "A team with this displayName already exists in this organization",
  SCIM_INVALID_FILTER:
    "The filter is not supported: use eq, co or sw on userName, externalId, emails.value or displayName",
  SCIM_INVALID_VALUE: "The request has an invalid value",
  SCIM_INVALID_PATH: "The PATCH operation's path is not supported",
  /** Deprovisioning the organization's last owner would leave it without one. */
  SCIM_SOLE_OWNER: "This person is the organization's only owner: make someone else an owner before deprovisioning",
});

/**
 * Organization API keys' refusals (server/modules/api-keys, docs/api-keys.md). A wrong, expired and revoked key get
 * the same answer, so a caller learns nothing about keys it does not hold.
 */
export const API_KEY_ERROR_CODES = defineErrorCodes({
  API_KEY_INVALID: "The API key is invalid, expired or revoked",
  /** The key lacks the scope of the call; `details.scope` names it. */
  API_KEY_SCOPE_MISSING: "This API key does not have the scope this call needs",
  /** Calls that only a person may make: managing keys, deleting the organization, security and SSO settings. */
  API_KEY_NOT_ACCEPTED: "This call is only for signed-in people, not for API keys",
  API_KEY_OTHER_ORGANIZATION: "This API key belongs to another organization",
  API_KEY_ADMIN_REQUIRED: "Only the organization's owners and admins can manage its API keys",
  API_KEY_NOT_FOUND: "API key not found",
});

/**
 * The better-auth codes the spec's error catalogue (section 8) words: server/auth/spec-errors.ts gives each its
 * status and message (its table is typed by this list, so neither can lose one), and the web app gives each a
 * sentence for people.
 */
export const SPEC_CATALOGUE_CODES = [
  "INVALID_USERNAME_OR_PASSWORD",
  "EMAIL_NOT_VERIFIED",
  "UNEXPECTED_ERROR",
  "USERNAME_IS_ALREADY_TAKEN",
  "USERNAME_TOO_SHORT",
  "USERNAME_TOO_LONG",
  "INVALID_USERNAME",
  "NO_ACTIVE_ORGANIZATION",
  "MEMBER_NOT_FOUND",
  "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION",
  "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS",
  "ORGANIZATION_ALREADY_EXISTS",
  "ORGANIZATION_NOT_FOUND",
  "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION",
  "TEAM_NOT_FOUND",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM",
  "UNABLE_TO_REMOVE_LAST_TEAM",
  "ORGANIZATION_SLUG_ALREADY_TAKEN",
  "FAILED_TO_CREATE_SESSION",
  "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE",
  "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD",
  "YOU_ARE_NOT_ALLOWED_TO_GET_USER",
  "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS",
  "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS",
  "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS",
  // better-auth's two-factor plugin (server/auth/two-factor.ts).
  "INVALID_CODE",
  "INVALID_BACKUP_CODE",
  "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
  "INVALID_TWO_FACTOR_COOKIE",
  "ACCOUNT_TEMPORARILY_LOCKED",
  "TOTP_ALREADY_ENABLED",
  "TOTP_NOT_ENABLED",
  "TWO_FACTOR_NOT_ENABLED",
] as const;
export type SpecCatalogueCode = (typeof SPEC_CATALOGUE_CODES)[number];

/** What exactly INVALID_METADATA refuses: its message names the problem. */
export const INVALID_METADATA_MESSAGES = {
  notJson: "metadata is not valid JSON",
  notAnObject: "metadata must be an object",
  tooDeep: (maxDepth: number) => `metadata may be nested at most ${maxDepth} levels deep`,
  tooLarge: (maxBytes: number) => `metadata may be at most ${maxBytes / 1024} KB`,
  forbiddenKey: (key: string) => `metadata may not contain the key "${key}"`,
};

/** The message of FRESH_AUTHENTICATION_REQUIRED, the same from better-auth's endpoints and the app's routes. */
export const FRESH_AUTHENTICATION_REQUIRED_MESSAGE =
  "This action needs a sign-in or a re-check from the last 10 minutes: confirm it is you, then try again";

/**
 * The refusals of the re-check (`POST /api/account/reauthenticate`), with the codes better-auth uses for a wrong
 * current password and a wrong two-factor code (both answer 400; server/auth/spec-errors.ts words the code's).
 */
export const REAUTHENTICATION_ERROR_CODES = defineErrorCodes({
  INVALID_PASSWORD: "Invalid password",
  INVALID_CODE: "Invalid code",
  /** Not a passkey of the signed-in account, or its answer did not verify (an expired or used challenge, too). */
  INVALID_PASSKEY: "Invalid passkey",
});

/** How a person can re-check: the `details` of FRESH_AUTHENTICATION_REQUIRED. */
export type ReauthenticationMethods = {
  /** The account has a password: `{ password }`. */
  password: boolean;
  /** The account has an authenticator app turned on: `{ code }`. */
  totp: boolean;
  /** The account has a passkey: `{ passkey }`, its answer to the passkey plugin's challenge. */
  passkey: boolean;
  /** The providers the account signs in with: signing in again through one makes a new, fresh session. */
  providers: string[];
};

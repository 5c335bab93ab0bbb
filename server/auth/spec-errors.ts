import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, dispatchAuthEndpoint, isAPIError, signUpEmail } from "better-auth/api";
import { USERNAME_ERROR_CODES } from "better-auth/plugins";
import { DomainError } from "../../common/domain-error";
import type { SpecCatalogueCode } from "../../common/error-codes";
import { matches } from "../modules/audit";

/**
 * The spec's error catalogue (section 8) is the contract; better-auth 1.7 capitalises its messages and
 * answers some with other statuses. This table is the one place that maps better-auth's `code` to the
 * spec's status and message. The `code` stays in the body, so clients can branch on it.
 */
const ACCESS_USER = { status: 403, message: "You are not allowed to access resource: user" };
const ACCESS_SESSION = { status: 403, message: "You are not allowed to access resource: session" };

// `satisfies` keeps this table and the catalogue's list of codes (common/error-codes.ts, which the web app words) equal.
export const SPEC_ERRORS: Record<string, { status: number; message: string }> = {
  INVALID_USERNAME_OR_PASSWORD: { status: 401, message: "invalid username or password" },
  EMAIL_NOT_VERIFIED: { status: 403, message: "email not verified" },
  UNEXPECTED_ERROR: { status: 500, message: "unexpected error" },
  USERNAME_IS_ALREADY_TAKEN: { status: 422, message: "username is already taken. please try another." },
  USERNAME_TOO_SHORT: { status: 422, message: "username is too short" },
  USERNAME_TOO_LONG: { status: 422, message: "username is too long" },
  INVALID_USERNAME: { status: 422, message: "username is invalid" },
  NO_ACTIVE_ORGANIZATION: { status: 400, message: "no active organization" },
  MEMBER_NOT_FOUND: { status: 400, message: "member not found" },
  YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER: {
    status: 400,
    message: "you cannot leave the organization as the only owner",
  },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: { status: 401, message: "not allowed to delete this member" },
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION: {
    status: 403,
    message: "not allowed to create a new organization",
  },
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS: {
    status: 403,
    message: "reached the maximum number of organizations",
  },
  ORGANIZATION_ALREADY_EXISTS: { status: 400, message: "organization already exists" },
  ORGANIZATION_NOT_FOUND: { status: 400, message: "organization not found" },
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: { status: 400, message: "user is not a member of the organization" },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION: {
    status: 403,
    message: "not allowed to update or delete the organization",
  },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION: {
    status: 403,
    message: "not allowed to update or delete the organization",
  },
  TEAM_NOT_FOUND: { status: 400, message: "team not found" },
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM: { status: 403, message: "not allowed to delete or update teams" },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION: {
    status: 403,
    message: "not allowed to delete or update teams",
  },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_TEAM: { status: 403, message: "not allowed to delete or update teams" },
  UNABLE_TO_REMOVE_LAST_TEAM: { status: 400, message: "unable to remove the last team" },
  ORGANIZATION_SLUG_ALREADY_TAKEN: { status: 400, message: "slug is taken" },
  FAILED_TO_CREATE_SESSION: { status: 500, message: "failed to create session" },
  // The admin plugin's refusals answer with the spec's access-check message, naming the resource checked.
  YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE: ACCESS_USER,
  YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS: ACCESS_USER,
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS: ACCESS_USER,
  YOU_ARE_NOT_ALLOWED_TO_BAN_USERS: ACCESS_USER,
  YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS: ACCESS_USER,
  YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS: ACCESS_USER,
  YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD: ACCESS_USER,
  YOU_ARE_NOT_ALLOWED_TO_GET_USER: ACCESS_USER,
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS: ACCESS_USER,
  YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS: ACCESS_SESSION,
  YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: ACCESS_SESSION,
  // The two-factor plugin's, which the spec does not word: they say what happened and what to do next.
  // A wrong code is a 400 (the plugin's 401 would read as a signed-out session on the re-check, which shares the code).
  INVALID_CODE: { status: 400, message: "the code is wrong or has expired" },
  INVALID_BACKUP_CODE: { status: 400, message: "the backup code is wrong or was already used" },
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: {
    status: 400,
    message: "too many wrong codes: this sign-in has ended, sign in again with your password",
  },
  INVALID_TWO_FACTOR_COOKIE: {
    status: 401,
    message: "this sign-in has ended or expired: sign in again with your password",
  },
  ACCOUNT_TEMPORARILY_LOCKED: {
    status: 429,
    message: "too many wrong codes for this account: wait 15 minutes, then sign in again",
  },
  TOTP_ALREADY_ENABLED: { status: 400, message: "two-factor authentication is already on" },
  TOTP_NOT_ENABLED: { status: 400, message: "two-factor authentication is not set up" },
  TWO_FACTOR_NOT_ENABLED: { status: 400, message: "two-factor authentication is not on" },
} satisfies Record<SpecCatalogueCode, { status: number; message: string }>;

/**
 * Rewrites better-auth error responses whose `code` the spec catalogues.
 *
 * better-auth's sign-up answers any failed insert with "Failed to create user", so a sign-up that lost a
 * race (the unique index refused it after the checks passed) answers what the sequential duplicate answers:
 * for its username, that it is taken; for its e-mail, the answer and the owner's mail of any sign-up with a
 * registered e-mail (better-auth's own, run again now that the e-mail is there), so a race does not tell
 * that the address was new. The app's error handler cannot do it: better-auth catches that database error
 * itself.
 */
export function specErrors(): BetterAuthPlugin {
  return {
    id: "spec-errors",
    hooks: {
      after: [
        {
          matcher: matches(signUpEmail()),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            const { username, email } = (ctx.body ?? {}) as { username?: unknown; email?: unknown };
            if (!isAPIError(returned) || returned.body?.code !== "FAILED_TO_CREATE_USER") return;
            if (typeof username === "string") {
              // The username plugin stores usernames in lowercase (its default normaliser, which the app keeps).
              const where = [{ field: "username", value: username.toLowerCase() }];
              const holder = await ctx.context.adapter.findOne({ model: "user", where });
              if (holder) throw DomainError.of(USERNAME_ERROR_CODES.USERNAME_IS_ALREADY_TAKEN);
            }
            if (typeof email !== "string") return;
            if (!(await ctx.context.internalAdapter.findUserByEmail(email.toLowerCase()))) return;
            // As a Response: a plain body would keep the failure's status.
            return dispatchAuthEndpoint(signUpEmail(), {
              body: ctx.body,
              headers: ctx.headers,
              context: { ...ctx.context, session: null },
              asResponse: true,
            });
          }),
        },
      ],
    },
    async onResponse(response) {
      if (response.status < 400) return;
      if (!(response.headers.get("content-type") ?? "").includes("json")) return;
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { code?: string; message?: string } | null;
      const mapped = body?.code ? SPEC_ERRORS[body.code] : undefined;
      if (!body || !mapped) return;
      const headers = new Headers(response.headers);
      headers.delete("content-length");
      return {
        response: new Response(JSON.stringify({ ...body, message: mapped.message }), {
          status: mapped.status,
          headers,
        }),
      };
    },
  };
}

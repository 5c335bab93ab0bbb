import type { BetterAuthPlugin } from "better-auth";
import {
  APIError,
  createAuthMiddleware,
  dispatchAuthEndpoint,
  getSessionFromCtx,
  requestPasswordReset,
} from "better-auth/api";
import { setShouldSkipSessionRefresh } from "better-auth/api";
import { admin } from "better-auth/plugins";
import type { Kysely } from "kysely";
import { bannedUserMessage } from "../../../common/admin.schemas";
import { SESSION_ENDED_HEADER } from "../../../common/ban-message";
import { DomainError } from "../../../common/domain-error";
import { PLATFORM_ADMIN_ERROR_CODES, type SpecCatalogueCode } from "../../../common/error-codes";
import {
  platformAccessControl,
  platformAllows,
  platformRoles,
  type PlatformPermissions,
} from "../../../common/permissions";
import { currentDatabase } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { auditedEndpoint, matches, matchesPluginEndpoints, type AuditedSession } from "../audit";
import { findAuditLabels, findSessionOwner, lockPlatformAdmins } from "./admin.repository";
import { assertMayBanUser, banUserEntries } from "./operations/ban-user";
import { createUserEntries, usernameForNewUser } from "./operations/create-user";
import { impersonateUserEntries } from "./operations/impersonate-user";
import { assertMayRemoveUser, removeUserEntries } from "./operations/remove-user";
import { rememberBannedSessions, wasSignedOutByBan } from "./operations/remember-banned-sessions";
import { revokeUserSessionEntries } from "./operations/revoke-user-session";
import { revokeUserSessionsEntries } from "./operations/revoke-user-sessions";
import { assertMaySetRole, setRoleEntries } from "./operations/set-role";
import { setUserPasswordEntries } from "./operations/set-user-password";
import { stopImpersonatingEntries } from "./operations/stop-impersonating";
import { unbanUserEntries } from "./operations/unban-user";
import { refuseUpdateUser } from "./operations/update-user";

/** The longest an impersonation lasts: one hour, then the session is gone and the admin signs in again. */
export const IMPERSONATION_SECONDS = 60 * 60;

/**
 * An impersonation session's token starts with this, so its signed cookie says, with no query, that the session
 * is one. The token is the session's key: a client cannot take the mark off, whatever cookies it keeps or drops.
 */
const IMPERSONATION_TOKEN_PREFIX = "imp_";

/**
 * An impersonation ends on time: better-auth refreshes a session it reads once a day of its 30 has passed, which
 * for a one-hour session is at once, and it skips that only while the `dont_remember` cookie is sent. Called
 * first in auth.ts's global before-hook, ahead of anything that reads the session, for every request.
 */
export async function keepImpersonationEnd(ctx: HookContext): Promise<void> {
  const token = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret);
  const isImpersonation = typeof token === "string" && token.startsWith(IMPERSONATION_TOKEN_PREFIX);
  if (isImpersonation) await setShouldSkipSessionRefresh(true);
}

export type PlatformAdminOptions = {
  db: Kysely<Database>;
  /** Configured administrator ids (`ADMIN_USER_IDS`): they pass every platform check (spec section 6). */
  adminUserIds: readonly string[];
  /** `ADMIN_EMAILS`, lowercase: a verified address listed there is a platform admin that cannot be demoted. */
  adminEmails: readonly string[];
  /** Where the web app's reset page is, for the set-a-password mail of a user created without a password. */
  resetPasswordPath: string;
};

type Body = Record<string, unknown>;
type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const bodyOf = (ctx: HookContext): Body => (ctx.body && typeof ctx.body === "object" ? (ctx.body as Body) : {});
const text = (value: unknown) => (typeof value === "string" ? value : undefined);
const rolesOf = (value: unknown) => (Array.isArray(value) ? value.join(",") : (text(value) ?? ""));
const userOf = (response: unknown) =>
  (response as { user?: { id: string; email: string; role?: string | null; banExpires?: Date | string | null } }).user;

/**
 * The platform-admin feature as better-auth plugins: better-auth's admin() with the spec's permission matrix,
 * then `platformAdminRules`, the rules it does not apply itself and the audit trail of every admin change.
 */
export function platformAdmin(options: PlatformAdminOptions) {
  const adminPlugin = admin({
    ac: platformAccessControl,
    roles: platformRoles,
    defaultRole: "user",
    adminRoles: ["admin"],
    adminUserIds: [...options.adminUserIds],
    impersonationSessionDuration: IMPERSONATION_SECONDS,
    allowImpersonatingAdmins: false,
    bannedUserMessage: (user) => bannedUserMessage((user as { banExpires?: Date | string | null }).banExpires),
  });
  return [adminPlugin, platformAdminRules(options, adminPlugin.endpoints)] as const;
}

type AdminEndpoints = ReturnType<typeof admin>["endpoints"];
type AdminEndpointName = keyof AdminEndpoints;

/** The permission each admin endpoint checks, with better-auth's code for its refusal (worded by spec-errors). */
const ENDPOINT_PERMISSIONS = {
  setRole: [{ user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE"],
  createUser: [{ user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS"],
  listUsers: [{ user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS"],
  banUser: [{ user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS"],
  unbanUser: [{ user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS"],
  impersonateUser: [{ user: ["impersonate"] }, "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS"],
  removeUser: [{ user: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS"],
  setUserPassword: [{ user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD"],
  listUserSessions: [{ session: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS"],
  revokeUserSession: [{ session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS"],
  revokeUserSessions: [{ session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS"],
} satisfies Partial<Record<AdminEndpointName, [PlatformPermissions, SpecCatalogueCode]>>;

/** Each checked endpoint's matcher, through the running auth instance's admin plugin (the global hook has no other). */
const ENDPOINT_ACCESS = Object.entries(ENDPOINT_PERMISSIONS).map(([name, [permissions, code]]) => ({
  matcher: matchesPluginEndpoints("admin", name),
  permissions,
  code,
}));

const accessOf = (ctx: HookContext) => ENDPOINT_ACCESS.find(({ matcher }) => matcher(ctx));

/**
 * Who may call an admin endpoint is answered before what they sent: auth.ts calls this ahead of the request
 * schemas, so a caller without the endpoint's permission gets the spec's 403 (401 without a session) whatever
 * the body, not a 400 about a body they may not send at all. better-auth checks the same permission again.
 */
export async function assertMayCallAdminEndpoint(ctx: HookContext, adminUserIds: readonly string[]): Promise<void> {
  const access = accessOf(ctx);
  if (!access) return;
  const session = await getSessionFromCtx(ctx);
  // better-auth's own answer without a session (its session check's bodiless 401), not a refusal of the app's.
  if (!session) throw APIError.fromStatus("UNAUTHORIZED");
  if (session.session.impersonatedBy) throw closedWhileImpersonating(ctx);
  if (platformAllows(session.user as { id: string; role?: string | null }, access.permissions, adminUserIds)) return;
  throw new DomainError(access.code, accessMessage(ctx));
}

/** The spec's access-check message, naming the resource the endpoint acts on (sessions' endpoints, or users). */
function accessMessage(ctx: HookContext): string {
  const permissions = accessOf(ctx)?.permissions;
  return `You are not allowed to access resource: ${permissions && "session" in permissions ? "session" : "user"}`;
}

/** While an admin browses as someone else, the console is closed: only stopping the impersonation is open. */
function closedWhileImpersonating(ctx: HookContext): DomainError {
  return new DomainError("FORBIDDEN", accessMessage(ctx));
}

type AdminSession = AuditedSession & { user: { role?: string | null } };
/** The caller and the user an admin endpoint names, for a use case's check. */
type AdminCall = { callerId: string; userId: string; body: Body };

/**
 * The app's rules and audit trail around admin()'s endpoints: the one adapter that maps better-auth's admin
 * endpoints (their hooks, bodies and sessions) to the use cases in `operations/`, one file per admin write, plain
 * functions over the database (the change's transaction, through `currentDatabase`) and the request's inputs.
 */
function platformAdminRules(options: PlatformAdminOptions, endpoints: AdminEndpoints) {
  const { db, adminUserIds } = options;

  /**
   * Runs a use case's check before its endpoint, for a caller with the endpoint's permission (without it
   * better-auth's own refusal answers, with the spec's message). Checked again inside the change's transaction,
   * where the audited endpoint runs its hooks once more after `lockPlatformAdmins`.
   */
  const checked = (
    name: keyof typeof ENDPOINT_PERMISSIONS,
    check: (db: Kysely<Database>, call: AdminCall) => Promise<void>,
  ) => ({
    matcher: matches(endpoints[name]),
    handler: createAuthMiddleware(async (ctx) => {
      const session = (await getSessionFromCtx(ctx)) as AdminSession | null;
      const body = bodyOf(ctx);
      const userId = text(body.userId);
      const [permissions] = ENDPOINT_PERMISSIONS[name];
      if (!session || !userId || !platformAllows(session.user, permissions, adminUserIds)) return;
      await check(await currentDatabase(db), { callerId: session.user.id, userId, body });
    }),
  });

  return {
    id: "platform-admin-rules",
    $ERROR_CODES: PLATFORM_ADMIN_ERROR_CODES,
    init: () => ({
      options: {
        databaseHooks: {
          session: {
            create: {
              async before(session) {
                if (!session.impersonatedBy) return;
                return { data: { ...session, token: `${IMPERSONATION_TOKEN_PREFIX}${session.token}` } };
              },
            },
          },
        },
      },
    }),
    hooks: {
      before: [
        {
          // While an admin browses as someone else, the console is closed: only stopping the impersonation is open.
          matcher: matches(
            ...(Object.keys(endpoints) as AdminEndpointName[])
              .filter((name) => name !== "stopImpersonating" && name !== "userHasPermission")
              .map((name) => endpoints[name]),
          ),
          handler: createAuthMiddleware(async (ctx) => {
            const session = await getSessionFromCtx(ctx);
            if (session?.session.impersonatedBy) throw closedWhileImpersonating(ctx);
          }),
        },
        { matcher: matches(endpoints.adminUpdateUser), handler: createAuthMiddleware(async () => refuseUpdateUser()) },
        checked("setRole", (trx, { callerId, userId, body }) =>
          assertMaySetRole(trx, {
            callerId,
            userId,
            role: rolesOf(body.role),
            adminUserIds,
            adminEmails: options.adminEmails,
          }),
        ),
        checked("banUser", (trx, call) => assertMayBanUser(trx, { ...call, adminUserIds })),
        checked("removeUser", (trx, call) => assertMayRemoveUser(trx, { ...call, adminUserIds })),
        {
          matcher: matches(endpoints.createUser),
          handler: createAuthMiddleware(async (ctx) => {
            const body = bodyOf(ctx);
            const data = body.data && typeof body.data === "object" ? (body.data as Body) : undefined;
            const username = text(data?.username);
            if (!data || !username) return;
            const named = await usernameForNewUser(await currentDatabase(db), {
              username,
              displayUsername: text(data.displayUsername),
            });
            return { context: { body: { ...body, data: { ...data, ...named } } } };
          }),
        },
        // Every change an admin makes is recorded with it, in its transaction. Listed after the rules, so a refusal opens none.
        auditedEndpoint({
          db,
          endpoint: endpoints.createUser,
          record: ({ body, response }) =>
            createUserEntries(userOf(response), { role: rolesOf(body.role), hasPassword: Boolean(body.password) }),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.setRole,
          lock: lockPlatformAdmins,
          prior: async (trx, { body }) => (await findAuditLabels(trx, text(body.userId) ?? "")).role,
          record: ({ body, response, prior }) =>
            setRoleEntries(userOf(response), { from: prior, to: rolesOf(body.role) }),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.banUser,
          lock: lockPlatformAdmins,
          record: ({ body, response }) => banUserEntries(userOf(response), text(body.banReason)),
        }),
        {
          // After the rules and inside the ban's transaction: the sessions it is about to delete, remembered.
          matcher: matches(endpoints.banUser),
          handler: createAuthMiddleware(async (ctx) => {
            const userId = text(bodyOf(ctx).userId);
            if (userId) await rememberBannedSessions(await currentDatabase(db), userId);
          }),
        },
        auditedEndpoint({
          db,
          endpoint: endpoints.unbanUser,
          record: ({ response }) => unbanUserEntries(userOf(response)),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.setUserPassword,
          prior: (trx, { body }) => findAuditLabels(trx, text(body.userId) ?? ""),
          record: ({ prior }) => setUserPasswordEntries(prior.user),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.impersonateUser,
          record: ({ body, response }) => impersonateUserEntries(userOf(response), text(body.reason)),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.stopImpersonating,
          prior: async (trx, { session }) =>
            session?.session.impersonatedBy
              ? (await findAuditLabels(trx, session.session.impersonatedBy)).user
              : undefined,
          record: ({ session, prior }) => stopImpersonatingEntries(session?.user, prior),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.revokeUserSession,
          prior: (trx, { body }) => findSessionOwner(trx, text(body.sessionToken) ?? ""),
          record: ({ prior }) => revokeUserSessionEntries(prior),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.revokeUserSessions,
          prior: (trx, { body }) => findAuditLabels(trx, text(body.userId) ?? ""),
          record: ({ prior }) => revokeUserSessionsEntries(prior.user),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.removeUser,
          lock: lockPlatformAdmins,
          prior: (trx, { body }) => findAuditLabels(trx, text(body.userId) ?? ""),
          record: ({ prior }) => removeUserEntries(prior.user),
        }),
      ],
      after: [
        {
          // No session for the cookie sent: if a ban signed it out, say so (the web app's sign-in page tells why).
          matcher: (ctx) => ctx.path === "/get-session",
          handler: createAuthMiddleware(async (ctx) => {
            if (ctx.context.returned !== null) return;
            const token = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret);
            if (typeof token === "string" && token && (await wasSignedOutByBan(db, token)))
              ctx.setHeader(SESSION_ENDED_HEADER, "banned");
          }),
        },
        {
          // Created without a password: the person gets the set-a-password mail (the reset flow, worded for a first password).
          matcher: matches(endpoints.createUser),
          handler: createAuthMiddleware(async (ctx) => {
            const user = userOf(ctx.context.returned);
            if (!user || bodyOf(ctx).password !== undefined || ctx.context.returned instanceof APIError) return;
            await dispatchAuthEndpoint(requestPasswordReset, {
              body: { email: user.email, redirectTo: options.resetPasswordPath },
              headers: new Headers(),
              context: { ...ctx.context, session: null },
            });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

import type { BetterAuthPlugin } from "better-auth";
import {
  APIError,
  createAuthMiddleware,
  dispatchAuthEndpoint,
  getSessionFromCtx,
  requestPasswordReset,
} from "better-auth/api";
import { setShouldSkipSessionRefresh } from "better-auth/api";
import { admin, USERNAME_ERROR_CODES } from "better-auth/plugins";
import type { Kysely } from "kysely";
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from "../../../common/account.schemas";
import { bannedUserMessage } from "../../../common/admin.schemas";
import { DomainError } from "../../../common/domain-error";
import { PLATFORM_ADMIN_ERROR_CODES, type SpecCatalogueCode } from "../../../common/error-codes";
import {
  isPlatformAdmin,
  platformAccessControl,
  platformAllows,
  platformRoles,
  type PlatformPermissions,
} from "../../../common/permissions";
import { currentDatabase } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { auditedEndpoint, type AuditRecord, type AuditedSession } from "../audit";
import {
  countPlatformAdminsOtherThan,
  findAuditLabels,
  findSessionOwner,
  isTakenUsername,
  lockPlatformAdmins,
} from "./admin.repository";
import { isListedInAdminEmails } from "./admin-emails";

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

/** The changes that could leave no platform admin, with the permission each needs. */
const LAST_ADMIN_CHECKS = new Map<string, PlatformPermissions>([
  ["/admin/set-role", { user: ["set-role"] }],
  ["/admin/ban-user", { user: ["ban"] }],
  ["/admin/remove-user", { user: ["delete"] }],
]);

/** The admin endpoints that act on sessions answer for the `session` resource; the others for `user`. */
const SESSION_PATHS = new Set([
  "/admin/list-user-sessions",
  "/admin/revoke-user-session",
  "/admin/revoke-user-sessions",
]);

/** The permission each admin endpoint checks, with better-auth's code for its refusal (worded by spec-errors). */
const ENDPOINT_PERMISSIONS = new Map<string, [PlatformPermissions, SpecCatalogueCode]>([
  ["/admin/set-role", [{ user: ["set-role"] }, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE"]],
  ["/admin/create-user", [{ user: ["create"] }, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS"]],
  ["/admin/list-users", [{ user: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS"]],
  ["/admin/ban-user", [{ user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS"]],
  ["/admin/unban-user", [{ user: ["ban"] }, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS"]],
  ["/admin/impersonate-user", [{ user: ["impersonate"] }, "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS"]],
  ["/admin/remove-user", [{ user: ["delete"] }, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS"]],
  ["/admin/set-user-password", [{ user: ["set-password"] }, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD"]],
  ["/admin/list-user-sessions", [{ session: ["list"] }, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS"]],
  ["/admin/revoke-user-session", [{ session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS"]],
  ["/admin/revoke-user-sessions", [{ session: ["revoke"] }, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS"]],
]);

/**
 * Who may call an admin endpoint is answered before what they sent: auth.ts calls this ahead of the request
 * schemas, so a caller without the endpoint's permission gets the spec's 403 (401 without a session) whatever
 * the body, not a 400 about a body they may not send at all. better-auth checks the same permission again.
 */
export async function assertMayCallAdminEndpoint(ctx: HookContext, adminUserIds: readonly string[]): Promise<void> {
  const [permissions, code] = ENDPOINT_PERMISSIONS.get(ctx.path) ?? [];
  if (!permissions || !code) return;
  const session = await getSessionFromCtx(ctx);
  // better-auth's own answer without a session (its session check's bodiless 401), not a refusal of the app's.
  if (!session) throw APIError.fromStatus("UNAUTHORIZED");
  if (session.session.impersonatedBy) throw closedWhileImpersonating(ctx.path);
  if (platformAllows(session.user as { id: string; role?: string | null }, permissions, adminUserIds)) return;
  throw new DomainError(code, accessMessage(ctx.path));
}

/** The spec's access-check message, naming the resource the endpoint acts on. */
function accessMessage(path: string): string {
  return `You are not allowed to access resource: ${SESSION_PATHS.has(path) ? "session" : "user"}`;
}

/** While an admin browses as someone else, the console is closed: only stopping the impersonation is open. */
function closedWhileImpersonating(path: string): DomainError {
  return new DomainError("FORBIDDEN", accessMessage(path));
}

type AdminTarget = { id: string; email: string; emailVerified?: boolean | null; role?: string | null };

function platformAdminRules(options: PlatformAdminOptions, endpoints: AdminEndpoints) {
  const { db, adminUserIds } = options;
  const may = (session: AuditedSession & { user: { role?: string | null } }, permissions: PlatformPermissions) =>
    platformAllows(session.user, permissions, adminUserIds);

  /** An entry about one user, labelled with the e-mail they had. */
  const aboutUser = (
    action: AuditRecord["action"],
    user: { id: string; email: string } | undefined,
    extra: Partial<AuditRecord> = {},
  ): AuditRecord[] => (user ? [{ action, target: { type: "user", id: user.id, label: user.email }, ...extra }] : []);

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
          matcher: (context) =>
            context.path?.startsWith("/admin/") === true &&
            context.path !== "/admin/stop-impersonating" &&
            context.path !== "/admin/has-permission",
          handler: createAuthMiddleware(async (ctx) => {
            const session = await getSessionFromCtx(ctx);
            if (session?.session.impersonatedBy) throw closedWhileImpersonating(ctx.path);
          }),
        },
        {
          // Spelled out by set-role, ban-user and set-user-password, each with its rules and audit entry: the catch-all
          // update would change a role, a ban or an e-mail past both.
          matcher: (context) => context.path === "/admin/update-user",
          handler: createAuthMiddleware(async () => {
            throw new DomainError(
              "NOT_FOUND",
              "No endpoint POST /api/auth/admin/update-user: use set-role, ban-user, unban-user or set-user-password",
            );
          }),
        },
        {
          // No admin changes their own platform role, and the last platform admin able to use the console is never
          // demoted, banned or deleted. Checked again inside the change's transaction, after `lockPlatformAdmins`.
          matcher: (context) => LAST_ADMIN_CHECKS.has(context.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const session = (await getSessionFromCtx(ctx)) as
              (AuditedSession & { user: { role?: string | null } }) | null;
            const body = bodyOf(ctx);
            const userId = text(body.userId);
            const permission = LAST_ADMIN_CHECKS.get(ctx.path) as PlatformPermissions;
            // Without the permission better-auth's own refusal answers, with the spec's message.
            if (!session || !userId || !may(session, permission)) return;
            if (ctx.path === "/admin/set-role") {
              const { YOU_CANNOT_CHANGE_YOUR_OWN_ROLE } = PLATFORM_ADMIN_ERROR_CODES;
              if (userId === session.user.id) throw DomainError.of(YOU_CANNOT_CHANGE_YOUR_OWN_ROLE);
              // A configured administrator id stays an admin whatever its role; a role that keeps `admin` demotes no one.
              if (isPlatformAdmin({ id: userId, role: rolesOf(body.role) }, adminUserIds)) return;
            }
            // Banning or deleting oneself is refused by better-auth, with its own message.
            if (userId === session.user.id) return;
            const target = (await ctx.context.internalAdapter.findUserById(userId)) as AdminTarget | null;
            if (!target || !isPlatformAdmin(target, adminUserIds)) return;
            // The admin-emails plugin would grant the role again at the user's next update: no demotion would hold.
            if (ctx.path === "/admin/set-role" && isListedInAdminEmails(target, options.adminEmails)) {
              throw DomainError.of(PLATFORM_ADMIN_ERROR_CODES.ADMIN_EMAILS_ADMIN);
            }
            if ((await countPlatformAdminsOtherThan(await currentDatabase(db), userId, adminUserIds)) === 0) {
              throw DomainError.of(PLATFORM_ADMIN_ERROR_CODES.LAST_PLATFORM_ADMIN);
            }
          }),
        },
        {
          // A username given at creation follows the sign-up rules (better-auth's username plugin checks only sign-up and update-user).
          matcher: (context) => context.path === "/admin/create-user",
          handler: createAuthMiddleware(async (ctx) => {
            const body = bodyOf(ctx);
            const data = body.data && typeof body.data === "object" ? (body.data as Body) : undefined;
            const username = text(data?.username);
            if (!data || !username) return;
            if (username.length < USERNAME_MIN_LENGTH) throw DomainError.of(USERNAME_ERROR_CODES.USERNAME_TOO_SHORT);
            if (username.length > USERNAME_MAX_LENGTH) throw DomainError.of(USERNAME_ERROR_CODES.USERNAME_TOO_LONG);
            if (!USERNAME_PATTERN.test(username)) throw DomainError.of(USERNAME_ERROR_CODES.INVALID_USERNAME);
            if (await isTakenUsername(await currentDatabase(db), username.toLowerCase())) {
              throw DomainError.of(USERNAME_ERROR_CODES.USERNAME_IS_ALREADY_TAKEN);
            }
            return {
              context: {
                body: {
                  ...body,
                  data: {
                    ...data,
                    username: username.toLowerCase(),
                    displayUsername: text(data.displayUsername) ?? username,
                  },
                },
              },
            };
          }),
        },
        // Every change an admin makes is recorded with it, in its transaction. Listed after the rules, so a refusal opens none.
        auditedEndpoint({
          db,
          endpoint: endpoints.createUser,
          record: ({ body, response }) =>
            aboutUser("user.created", userOf(response), {
              details: { role: rolesOf(body.role) || "user", password: body.password ? "set" : "invited" },
            }),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.setRole,
          lock: lockPlatformAdmins,
          prior: async (trx, { body }) => (await findAuditLabels(trx, text(body.userId) ?? "")).role,
          record: ({ body, response, prior }) =>
            aboutUser("user.role_changed", userOf(response), {
              details: { from: prior ?? "user", to: rolesOf(body.role) },
            }),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.banUser,
          lock: lockPlatformAdmins,
          record: ({ body, response }) => {
            const user = userOf(response);
            const expiresAt = user?.banExpires ? new Date(user.banExpires).toISOString() : null;
            return aboutUser("user.banned", user, { reason: text(body.banReason), details: { expiresAt } });
          },
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.unbanUser,
          record: ({ response }) => aboutUser("user.unbanned", userOf(response)),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.setUserPassword,
          prior: (trx, { body }) => findAuditLabels(trx, text(body.userId) ?? ""),
          record: ({ prior }) => aboutUser("user.password_set", prior.user),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.impersonateUser,
          record: ({ body, response }) =>
            aboutUser("user.impersonation_started", userOf(response), { reason: text(body.reason) }),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.stopImpersonating,
          // The admin ends it, from the impersonated session: the entry is theirs, about the user they browsed as.
          prior: async (trx, { session }) =>
            session?.session.impersonatedBy
              ? (await findAuditLabels(trx, session.session.impersonatedBy)).user
              : undefined,
          record: ({ session, prior }) =>
            session && prior
              ? aboutUser(
                  "user.impersonation_stopped",
                  { id: session.user.id, email: session.user.email },
                  { actor: { id: prior.id, label: prior.email }, impersonatorId: null },
                )
              : [],
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.revokeUserSession,
          prior: (trx, { body }) => findSessionOwner(trx, text(body.sessionToken) ?? ""),
          record: ({ prior }) =>
            prior
              ? [
                  {
                    action: "user.session_revoked",
                    target: { type: "user", id: prior.userId, label: prior.email },
                    details: { sessionId: prior.sessionId },
                  },
                ]
              : [],
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.revokeUserSessions,
          prior: (trx, { body }) => findAuditLabels(trx, text(body.userId) ?? ""),
          record: ({ prior }) => aboutUser("user.sessions_revoked", prior.user),
        }),
        auditedEndpoint({
          db,
          endpoint: endpoints.removeUser,
          lock: lockPlatformAdmins,
          prior: (trx, { body }) => findAuditLabels(trx, text(body.userId) ?? ""),
          record: ({ prior }) => aboutUser("user.deleted", prior.user),
        }),
      ],
      after: [
        {
          // Created without a password: the person gets the set-a-password mail (the reset flow, worded for a first password).
          matcher: (context) => context.path === "/admin/create-user",
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

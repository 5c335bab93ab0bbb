import { betterAuth, type BetterAuthOptions, type BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { admin, organization, username } from "better-auth/plugins";
import type { Kysely } from "kysely";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from "../../common/account.schemas";
import { organizationAccessControl, organizationRoles, platformAccessControl, platformRoles } from "../../common/permissions";
import type { Config } from "../config";
import type { Dialect } from "../db/database";
import type { Database } from "../db/schema";
import type { Logger } from "../logger";
import { CLIENT_IP_HEADER } from "../http/middleware/client-ip";
import type { MailQueue } from "../modules/mail";
import { mailTemplates } from "../modules/mail";
import {
  assertMayRemoveMember,
  assertMemberOfRequestedOrganization,
  atomicOrganizationCreate,
  createOrganizationHooks,
  normalizeMetadata,
  onMemberLeft,
  serializedTeamMemberAdd,
  type AuthApiCall,
} from "../modules/organizations";
import { adminEmails, isPlatformAdmin } from "./platform-admins";
import type { RateLimitStore } from "./rate-limit-store";
import { assertValidRequest } from "./request-schemas";
import { specErrors } from "./spec-errors";

export type AuthDeps = {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  mail: MailQueue;
  logger: Logger;
  /** Where the rate-limit counters live (the database table or Redis), wrapped to fail open. */
  rateLimitStore: RateLimitStore;
};

/** Session lifetime: 30 days, refreshed daily; better-call refuses cookies over 400 days. */
const SESSION_EXPIRES_IN_SECONDS = 60 * 60 * 24 * 30;
const ONE_HOUR_SECONDS = 60 * 60;

/** Rate limits per client address: tighter on the endpoints that guess passwords or send mail. */
export const RATE_LIMIT_RULES = {
  default: { window: 60, max: 300 },
  "/sign-in/*": { window: 60, max: 10 },
  "/sign-up/email": { window: 60, max: 10 },
  "/change-password": { window: 60, max: 10 },
  "/request-password-reset": { window: 300, max: 5 },
  "/send-verification-email": { window: 300, max: 5 },
  "/is-username-available": { window: 60, max: 60 },
} as const;

export function createAuth(deps: AuthDeps) {
  const { config, mail } = deps;
  const appUrl = (pathname: string) => `${config.baseUrl}${pathname}`;

  // Bound below, once the instance exists: the transactional plugins re-enter these calls through it.
  const late: { createOrganization?: AuthApiCall; addTeamMember?: AuthApiCall } = {};

  const options = {
    appName: "Atrium",
    baseURL: config.baseUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    // better-auth's own messages go through the app's logger, so they share its format and level.
    logger: {
      level: "debug",
      log: (level, message, ...args) => deps.logger[level](`auth: ${message}`, args.length ? { details: args } : undefined),
    },
    // Without `transaction: true` better-auth's "transactions" (accepting an invitation, removing a member
    // or a team) run statement by statement and cannot roll back.
    database: { db: deps.db, type: deps.dialect, transaction: true },
    // Anything but an APIError (a unique violation lost to a concurrent request, a database failure) leaves
    // auth.handler and reaches the app's one error handler, which answers and logs it; otherwise better-call
    // prints it with console.error and answers an empty 500.
    onAPIError: { throw: true },
    trustedOrigins: [new URL(config.baseUrl).origin, ...config.trustedOrigins],
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      resetPasswordTokenExpiresIn: ONE_HOUR_SECONDS,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, url }) {
        await mail.enqueue({ to: user.email, ...mailTemplates.passwordResetMail({ name: user.name, url }) });
      },
      async onPasswordReset({ user }) {
        await mail.enqueue({
          to: user.email,
          ...mailTemplates.noticeMail({
            name: user.name,
            subject: "Your password was reset",
            message: "Your password was just reset, and every session of your account was signed out.",
          }),
        });
      },
      async onExistingUserSignUp({ user }) {
        await mail.enqueue({
          to: user.email,
          ...mailTemplates.existingAccountMail({ name: user.name, signInUrl: appUrl("/sign-in"), resetUrl: appUrl("/forgot-password") }),
        });
      },
    },
    socialProviders: config.socialProviders,
    // Linking a social account to an existing one only happens when the provider vouches for the e-mail.
    account: { accountLinking: { enabled: true } },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: ONE_HOUR_SECONDS,
      async sendVerificationEmail({ user, url }) {
        await mail.enqueue({ to: user.email, ...mailTemplates.verificationMail({ name: user.name, url }) });
      },
    },
    user: {
      deleteUser: {
        enabled: true,
        async afterDelete(user) {
          await mail.enqueue({
            to: user.email,
            ...mailTemplates.noticeMail({
              name: user.name,
              subject: "Your account was deleted",
              message: "Your Atrium account and its sessions were deleted, as you asked.",
            }),
          });
        },
      },
    },
    session: {
      expiresIn: SESSION_EXPIRES_IN_SECONDS,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      window: RATE_LIMIT_RULES.default.window,
      max: RATE_LIMIT_RULES.default.max,
      // The counters go through `customStorage`, which takes precedence; "database" keeps the `rateLimit`
      // table in better-auth's schema, which the database store uses.
      storage: "database",
      customRules: {
        "/sign-in/*": RATE_LIMIT_RULES["/sign-in/*"],
        "/sign-up/email": RATE_LIMIT_RULES["/sign-up/email"],
        "/change-password": RATE_LIMIT_RULES["/change-password"],
        "/request-password-reset": RATE_LIMIT_RULES["/request-password-reset"],
        "/send-verification-email": RATE_LIMIT_RULES["/send-verification-email"],
        "/is-username-available": RATE_LIMIT_RULES["/is-username-available"],
      },
      customStorage: deps.rateLimitStore,
    },
    advanced: {
      disableCSRFCheck: false,
      disableOriginCheck: false,
      useSecureCookies: config.isHttps,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.isHttps },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER], ipv6Subnet: 64 },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        assertValidRequest(ctx);
        const body = ctx.body && typeof ctx.body === "object" ? (ctx.body as Record<string, unknown>) : undefined;
        // The spec: displayUsername is copied from username when missing; better-auth 1.7 does so on sign-up only.
        if (ctx.path === "/update-user" && body && typeof body.username === "string" && body.displayUsername === undefined) {
          return { context: { body: { ...body, displayUsername: body.username } } };
        }
        // The spec: a password change ends every other session, whatever the client asked for.
        if (ctx.path === "/change-password" && body) {
          return { context: { body: { ...body, revokeOtherSessions: true } } };
        }
        if (ctx.path === "/organization/remove-member" && body && typeof body.memberIdOrEmail === "string") {
          const session = await getSessionFromCtx(ctx);
          const organizationId = (typeof body.organizationId === "string" && body.organizationId) || session?.session.activeOrganizationId;
          if (session && organizationId)
            await assertMayRemoveMember(deps.db, { userId: session.user.id, organizationId, memberIdOrEmail: body.memberIdOrEmail });
        }
        // Asking for another tenant's organization (by id or slug) is refused before better-auth clears the
        // caller's active organization on its own refusal.
        const requested = ctx.path === "/organization/get-full-organization" ? ctx.query : ctx.path === "/organization/set-active" ? body : undefined;
        const organizationId = typeof requested?.organizationId === "string" && requested.organizationId ? requested.organizationId : undefined;
        const organizationSlug = typeof requested?.organizationSlug === "string" && requested.organizationSlug ? requested.organizationSlug : undefined;
        if (organizationId || organizationSlug) {
          const session = await getSessionFromCtx(ctx);
          const activeOrganizationId = session?.session.activeOrganizationId;
          if (session && activeOrganizationId && activeOrganizationId !== organizationId) {
            await assertMemberOfRequestedOrganization(deps.db, session.user.id, { organizationId, organizationSlug });
          }
        }
        // Metadata may come as a map or a JSON string; it is bounded in size and depth either way.
        if (ctx.path === "/organization/create" && body && body.metadata !== undefined) {
          return { context: { body: { ...body, metadata: normalizeMetadata(body.metadata) } } };
        }
        const data = body?.data && typeof body.data === "object" ? (body.data as Record<string, unknown>) : undefined;
        if (ctx.path === "/organization/update" && body && data && data.metadata !== undefined) {
          return { context: { body: { ...body, data: { ...data, metadata: normalizeMetadata(data.metadata) } } } };
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        const succeeded = !(ctx.context.returned instanceof APIError);
        if (ctx.path === "/organization/leave" && succeeded) {
          const session = await getSessionFromCtx(ctx);
          const organizationId = (ctx.body as { organizationId?: string } | undefined)?.organizationId;
          if (session && organizationId) await onMemberLeft(deps.db, session.user.id, organizationId);
        }
        if (ctx.path === "/change-password" && succeeded && ctx.context.session) {
          const { user } = ctx.context.session;
          await mail.enqueue({
            to: user.email,
            ...mailTemplates.noticeMail({
              name: user.name,
              subject: "Your password was changed",
              message: "The password of your account was just changed, and your other sessions were signed out.",
            }),
          });
        }
      }),
    },
    plugins: [
      username({
        minUsernameLength: USERNAME_MIN_LENGTH,
        maxUsernameLength: USERNAME_MAX_LENGTH,
        usernameValidator: (value) => USERNAME_PATTERN.test(value),
      }),
      organization({
        ac: organizationAccessControl,
        roles: organizationRoles,
        creatorRole: "owner",
        teams: { enabled: true, allowRemovingAllTeams: false },
        invitationExpiresIn: 60 * 60 * 24 * 2,
        // The spec: only the invited, verified address may accept (better-auth skips the check for its own ids).
        requireEmailVerificationOnInvitation: true,
        organizationLimit: config.organizations.limit,
        allowUserToCreateOrganization: async (user) =>
          config.organizations.whoMayCreate === "everyone" ||
          (config.organizations.whoMayCreate === "admins" && isPlatformAdmin(user as { id: string; role?: string | null }, config.adminUserIds)),
        disableOrganizationDeletion: config.organizations.isDeletionDisabled,
        organizationHooks: createOrganizationHooks(deps.db),
        async sendInvitationEmail({ id, email, organization: org, inviter, role }) {
          await mail.enqueue({
            to: email,
            ...mailTemplates.invitationMail({
              inviterName: inviter.user.name,
              organizationName: org.name,
              role,
              url: appUrl(`/invitations/${id}?email=${encodeURIComponent(email)}`),
            }),
          });
        },
      }),
      admin({
        ac: platformAccessControl,
        roles: platformRoles,
        defaultRole: "user",
        adminRoles: ["admin"],
        adminUserIds: config.adminUserIds,
      }),
      platformRoleDefault(),
      adminEmails({ db: deps.db, adminEmails: config.adminEmails }),
      atomicOrganizationCreate(() => late.createOrganization!),
      serializedTeamMemberAdd(() => late.addTeamMember!),
      specErrors(),
    ],
  } satisfies BetterAuthOptions;

  const auth = betterAuth(options);
  late.createOrganization = ({ body, headers }) => auth.api.createOrganization({ body, headers, returnHeaders: true });
  late.addTeamMember = ({ body, headers }) => auth.api.addTeamMember({ body, headers, returnHeaders: true });
  return auth;
}

/**
 * The default platform role as a schema default. A sign-up with a registered e-mail answers with a
 * synthetic user built from the schema (no account enumeration); without a default its `role` is null
 * while a real sign-up's is "user", which tells the two apart. Listed after admin() so it wins.
 */
function platformRoleDefault(): BetterAuthPlugin {
  return {
    id: "platform-role-default",
    schema: { user: { fields: { role: { type: "string", required: false, input: false, defaultValue: "user" } } } },
  };
}

export type Auth = ReturnType<typeof createAuth>;
export type AuthSession = NonNullable<Awaited<ReturnType<Auth["api"]["getSession"]>>>;

import { betterAuth, type BetterAuthOptions } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import type { Kysely } from "kysely";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../common/account.schemas";
import type { Config } from "../config";
import type { Dialect } from "../db/database";
import type { Database } from "../db/schema";
import type { Logger } from "../logger";
import { CLIENT_IP_HEADER } from "../http/middleware/client-ip";
import type { Billing } from "../modules/billing";
import { authMailNotices, type MailQueue } from "../modules/mail";
import type { TxtLookup } from "../modules/sso";
import { currentDatabase, shareTransactions } from "../db/current-database";
import { assertMayCallAdminEndpoint, keepImpersonationEnd } from "../modules/admin";
import { verifyEmailOnPasswordReset } from "./account-rules";
import { emailChangeOf } from "./change-email";
import { withDomainErrors } from "./domain-errors";
import { boundedPasswordHashing, type PasswordHashing } from "./password-hashing";
import { rateLimit } from "./rate-limit";
import type { RateLimitStore } from "../http/rate-limit-store";
import { assertValidRequest } from "./request-schemas";
import { authPlugins } from "./plugins";
import { authLogLevel, socialSignIn } from "./social-sign-in";

export type AuthDeps = {
  config: Config;
  db: Kysely<Database>;
  dialect: Dialect;
  mail: MailQueue;
  logger: Logger;
  /** Where the rate-limit counters live (the database table or Redis), wrapped to fail open. */
  rateLimitStore: RateLimitStore;
  /** The billing module: its plan limits gate invitations, members and teams, and deleting an organization ends its subscription. */
  billing: Billing;
  /** Where SSO domain verification looks TXT records up (DNS_SERVERS, the development DNS server, or the system's). */
  dnsLookup: TxtLookup;
  /** better-auth's scrypt, one hash per core at a time, unless given (the integration tests' cheap one). */
  passwordHashing?: PasswordHashing;
};

/** Session lifetime: 30 days, refreshed daily; better-call refuses cookies over 400 days. */
const SESSION_EXPIRES_IN_SECONDS = 60 * 60 * 24 * 30;
const ONE_HOUR_SECONDS = 60 * 60;

/** better-auth with the app's options; the rules live in plugins: the account rules here, the organization rules in their module. */
export function createAuth(deps: AuthDeps) {
  const { config } = deps;
  const mailNotices = authMailNotices(deps.mail, {
    baseUrl: config.baseUrl,
    emailChangeOf,
    // Asked while better-auth may hold a transaction (an admin creating a user sends the set-a-password mail in it).
    signInKind: async (userId) => {
      const accounts = await (
        await currentDatabase(deps.db)
      )
        .selectFrom("account")
        .select("providerId")
        .where("userId", "=", userId)
        .execute();
      if (accounts.some((account) => account.providerId === "credential")) return "password";
      return accounts.length > 0 ? "provider" : "none";
    },
  });
  const social = socialSignIn(config);

  const options = {
    appName: "Atrium",
    baseURL: config.baseUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    // better-auth's own messages go through the app's logger, so they share its format and level.
    logger: {
      level: "debug",
      log: (level, message, ...args) =>
        deps.logger[authLogLevel(level, message)](`auth: ${message}`, args.length ? { details: args } : undefined),
    },
    // Without `transaction: true` better-auth's "transactions" (accepting an invitation, removing a member
    // or a team) run statement by statement and cannot roll back. Its transactions are shared with the
    // hooks that run inside them (`currentDatabase`).
    database: { db: shareTransactions(deps.db), type: deps.dialect, transaction: true },
    // Anything but an APIError (a unique violation lost to a concurrent request, a database failure) leaves
    // auth.handler and reaches the app's one error handler, which answers and logs it; otherwise better-call
    // prints it with console.error and answers an empty 500.
    // A sign-in through a provider that fails (an expired or tampered state, a replayed code, a banned user)
    // ends on the app's page that says why, unless the flow named its own errorCallbackURL.
    onAPIError: { throw: true, errorURL: `${config.baseUrl}/auth/error` },
    trustedOrigins: [new URL(config.baseUrl).origin, ...config.trustedOrigins],
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      resetPasswordTokenExpiresIn: ONE_HOUR_SECONDS,
      password: deps.passwordHashing ?? boundedPasswordHashing(),
      revokeSessionsOnPasswordReset: true,
      ...mailNotices.emailAndPassword,
      async onPasswordReset(data) {
        await verifyEmailOnPasswordReset(deps.db, data.user);
        await mailNotices.emailAndPassword.onPasswordReset(data);
      },
    },
    socialProviders: social.socialProviders,
    account: {
      // A provider identity joins an existing account on its own only when the provider vouches for the same
      // e-mail and the account's e-mail is verified too; no provider is trusted without that (docs/decisions/0009).
      accountLinking: {
        enabled: true,
        requireLocalEmailVerified: true,
        trustedProviders: [],
        allowDifferentEmails: false,
      },
      // The state travels in an encrypted cookie that lives as long as the state itself, 10 minutes (the
      // database strategy's binding cookie lasts 5).
      storeStateStrategy: "cookie",
      // The providers' access and refresh tokens are kept encrypted with the auth secret, not as they came.
      encryptOAuthTokens: true,
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: ONE_HOUR_SECONDS,
      ...mailNotices.emailVerification,
    },
    user: {
      deleteUser: { enabled: true, ...mailNotices.deleteUser },
      // The link goes to the new address and the change takes effect when it is opened (change-email.ts): no
      // change without it, even for an unverified account, and no extra confirmation step at the old address.
      changeEmail: { enabled: true },
    },
    session: {
      expiresIn: SESSION_EXPIRES_IN_SECONDS,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: rateLimit(deps.rateLimitStore),
    advanced: {
      disableCSRFCheck: false,
      disableOriginCheck: false,
      useSecureCookies: config.isHttps,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: config.isHttps },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER], ipv6Subnet: 64 },
    },
    // Every request is checked against its schema before any plugin sees it; an admin endpoint's caller first.
    // Before anything reads the session: an impersonation's is never refreshed.
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        await keepImpersonationEnd(ctx);
        await assertMayCallAdminEndpoint(ctx, config.adminUserIds);
        assertValidRequest(ctx);
      }),
    },
    plugins: authPlugins(config, deps, { mailNotices, social }),
  } satisfies BetterAuthOptions;

  return betterAuth(withDomainErrors(options));
}

export type Auth = ReturnType<typeof createAuth>;
export type AuthSession = NonNullable<Awaited<ReturnType<Auth["api"]["getSession"]>>>;

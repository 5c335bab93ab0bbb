import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, linkSocialAccount, signInSocial } from "better-auth/api";
import { genericOAuth, type GenericOAuthConfig } from "better-auth/plugins";
import { github, google } from "better-auth/social-providers";
import type { OAuth2Tokens } from "better-auth";
import { DomainError } from "../../common/domain-error";
import { ERROR_CODES } from "../../common/error-codes";
import type { Config } from "../config";
import type { Logger } from "../logger";
import { matches } from "../modules/audit";
import { recordProviderAssertion } from "./unconfirmed-provider-email";

/** The e-mail a provider asserted, kept for the account row written later in the same request. */
const assertedEmails = new WeakMap<object, { providerId: string; email: string }>();

/**
 * better-auth's configuration for the sign-in providers (docs/decisions/0009): GitHub and Google as its own
 * social providers; every OpenID Connect provider (one found by OIDC_ISSUER, and the development one) through
 * its generic OAuth plugin, found by discovery, with PKCE and the ID token verified against the provider's keys.
 * All of them answer at `POST /sign-in/social` and `/callback/{id}`.
 *
 * Each provider must vouch for the e-mail (`requireEmailVerification`): an account whose e-mail no provider
 * has verified gets a confirmation mail and no session, exactly as a password sign-up does.
 */
export function socialSignIn(config: Pick<Config, "socialProviders">) {
  const socialProviders: NonNullable<BetterAuthOptions["socialProviders"]> = {};
  const openIdProviders: GenericOAuthConfig[] = [];
  for (const provider of config.socialProviders) {
    if (provider.id === "github" || provider.id === "google") {
      const options = { clientId: provider.clientId, clientSecret: provider.clientSecret };
      const common = { ...options, requireEmailVerification: true };
      if (provider.id === "github") socialProviders.github = { ...common, getUserInfo: noting(github(options)) };
      else socialProviders.google = { ...common, getUserInfo: noting(google(options)) };
      continue;
    }
    openIdProviders.push({
      providerId: provider.id,
      name: provider.name,
      discoveryUrl: `${provider.issuer}/.well-known/openid-configuration`,
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      authentication: "basic",
      scopes: ["openid", "email", "profile"],
      pkce: true,
      requireIdTokenVerification: true,
      requireEmailVerification: true,
      // Signing out of the app never signs anyone out of their provider.
      disableProviderLogout: true,
      // The development provider asks every time, so its login page is where one picks who to be.
      prompt: provider.id === "dev" ? "login" : undefined,
      // Notes what the provider said of the e-mail, for the answer to an e-mail it does not vouch for.
      mapProfileToUser: async (profile) => {
        await recordProviderAssertion(profile);
        return {};
      },
    });
  }
  return { socialProviders, plugin: genericOAuth({ config: openIdProviders }) };
}

/**
 * better-auth's own user info of a built-in provider, noting what the provider said of the e-mail for the answer to
 * one it does not vouch for (server/auth/unconfirmed-provider-email.ts).
 */
function noting<TInfo extends { user: { email?: unknown; emailVerified?: unknown } } | null>(builtIn: {
  getUserInfo: (token: OAuth2Tokens) => Promise<TInfo>;
}) {
  return async (token: OAuth2Tokens): Promise<TInfo> => {
    const info = await builtIn.getUserInfo(token);
    if (info) await recordProviderAssertion(info.user);
    return info;
  };
}

/**
 * The development identity provider is served by this very process, which calls its discovery when auth
 * starts, often before it listens (or, under `npm run dev`, before the proxy in front of it can reach it).
 * better-auth then retries the discovery on the first sign-in through it, so that failure is no error.
 */
function isDevProviderDiscoveryAtStart(message: string): boolean {
  return (
    message.startsWith('Discovery fetch failed for "dev"') ||
    message.startsWith('Provider "dev": discovery left no usable')
  );
}

/**
 * The outcomes of a sign-in through a provider that better-auth logs as errors although they are the person's
 * (an address the provider has not confirmed, an account not linked to that provider): each ends on a page
 * that tells the person what to do, and nothing is wrong with the deployment.
 */
const PERSON_OUTCOMES = new Set(["email_not_verified", "account_not_linked"]);

/** The level at which the app logs one of better-auth's messages. */
export function authLogLevel(level: keyof Logger, message: string): keyof Logger {
  if (isDevProviderDiscoveryAtStart(message)) return "debug";
  return level === "error" && PERSON_OUTCOMES.has(message) ? "info" : level;
}

/**
 * Keeps, on each provider account, the e-mail the provider last asserted, so account settings can say which
 * GitHub or Google account is linked. better-auth hands the provider's user info to `validateUserInfo` on every
 * sign-in, link and sign-up through a provider, then writes the account row in the same request.
 *
 * Also says when a configured OpenID Connect provider is down: its discovery failed (at start, and again just
 * now, on this request), so better-auth does not know it and would answer "Provider not found".
 */
export function signInMethods(config: Pick<Config, "socialProviders">) {
  const providerEmail = (account: { providerId?: unknown }, context: unknown) => {
    const asserted = context && typeof context === "object" ? assertedEmails.get(context) : undefined;
    return asserted && asserted.providerId === account.providerId ? asserted.email : undefined;
  };
  return {
    id: "sign-in-methods",
    schema: { account: { fields: { email: { type: "string", required: false, input: false } } } },
    hooks: {
      before: [
        {
          matcher: matches(signInSocial(), linkSocialAccount),
          handler: createAuthMiddleware(async (ctx) => {
            const requested = (ctx.body as { provider?: unknown } | undefined)?.provider;
            const isConfigured = config.socialProviders.some((provider) => provider.id === requested);
            if (isConfigured && !ctx.context.socialProviders.some((provider) => provider.id === requested)) {
              throw new DomainError(
                ERROR_CODES.PROVIDER_UNAVAILABLE,
                "The sign-in provider does not answer. Try again in a moment, or sign in another way.",
              );
            }
          }),
        },
      ],
    },
    init: () => ({
      options: {
        user: {
          validateUserInfo: async ({ user, source }, context) => {
            if (source.method === "oauth" && source.oauth && typeof user.email === "string" && context) {
              assertedEmails.set(context, { providerId: source.oauth.providerId, email: user.email.toLowerCase() });
            }
          },
        },
        databaseHooks: {
          account: {
            create: {
              before: async (account, context) => {
                const email = providerEmail(account, context);
                return email ? { data: { ...account, email } } : undefined;
              },
            },
            update: {
              before: async (account, context) => {
                const email = providerEmail(account, context);
                return email ? { data: { ...account, email } } : undefined;
              },
            },
          },
        },
      },
    }),
  } satisfies BetterAuthPlugin;
}

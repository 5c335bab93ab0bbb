import { generateKeyPairSync, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Interaction, KoaContextWithOIDC } from "oidc-provider";
import type { Logger } from "../../logger";
import { createIdentityStore, createMemoryAdapter } from "./dev-identity.repository";
import { errorPage } from "./dev-identity.pages";
import type { DevIdentity, MadeUpIdentityInput } from "./dev-identity.schemas";

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Short lifetimes: a development sign-in is done in seconds, and nothing here should outlive a restart anyway. */
const TEN_MINUTES = 600;

export type DevIdentityProvider = Awaited<ReturnType<typeof createDevIdentityProvider>>;

/**
 * The development identity provider: a real OpenID Connect provider (oidc-provider, a certified
 * implementation) that signs whoever uses it in as an identity they pick or make up. It has one client, this
 * app, and requires PKCE; its login page is the module's own (`dev-identity.pages.ts`). oidc-provider is loaded
 * only when the provider is on, so a production server without it never loads it.
 */
export async function createDevIdentityProvider(options: {
  issuer: string;
  client: { clientId: string; clientSecret: string; redirectUri: string };
  /**
   * The client an organization registers as its SSO provider in development (docs/sso.md): one documented id and
   * secret, shown at `/dev/oidc/sso-client`, whose redirect URIs are the app's SSO callbacks, one per provider id
   * (`<callbackPrefix><providerId>`), so any provider id registered through SSO signs in with it.
   */
  ssoClient: { clientId: string; clientSecret: string; callbackPrefix: string };
  /** The app's sign-in page, where the provider's dead ends lead back to. */
  signInUrl: string;
  /** Signs the provider's cookies. */
  cookieSecret: string;
  logger: Logger;
  isProduction: boolean;
}) {
  if (options.isProduction) {
    options.logger.warn(
      "the dev identity provider is on: anyone who can reach it can sign in as any user with the e-mail they type",
      {
        issuer: options.issuer,
      },
    );
  }
  const { default: Provider, errors } = await import("oidc-provider");
  const identities = createIdentityStore();
  // A new signing key per process: tokens live minutes, and discovery serves the key to the app.
  const signingKey = {
    ...generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" }),
    kid: randomUUID(),
    use: "sig",
  };

  const provider = new Provider(options.issuer, {
    adapter: createMemoryAdapter(),
    clients: [
      {
        client_id: options.client.clientId,
        client_secret: options.client.clientSecret,
        client_name: "Atrium",
        redirect_uris: [options.client.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        id_token_signed_response_alg: "ES256",
      },
      {
        client_id: options.ssoClient.clientId,
        client_secret: options.ssoClient.clientSecret,
        client_name: "Atrium (SSO)",
        // Checked by the rule below; oidc-provider wants one listed.
        redirect_uris: [`${options.ssoClient.callbackPrefix}dev`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        id_token_signed_response_alg: "ES256",
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [options.cookieSecret] },
    scopes: ["openid", "email", "profile"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The ID token carries the e-mail too, as Google's and most providers' do, so the account can show it.
    conformIdTokenClaims: false,
    findAccount: async (_ctx, sub) => {
      const identity = identities.find(sub);
      if (!identity) return undefined;
      return {
        accountId: identity.sub,
        claims: async () => ({
          sub: identity.sub,
          name: identity.name,
          email: identity.email,
          email_verified: identity.emailVerified,
        }),
      };
    },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
    interactions: { url: async (_ctx, interaction) => `${options.issuer}/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    // Its only client is this app: consent is implied, as for any first-party client.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    renderError: async (ctx: KoaContextWithOIDC, out) => {
      ctx.type = "html";
      ctx.body = errorPage({
        title: "The dev identity provider cannot go on",
        detail: out.error_description ?? out.error,
        backTo: options.signInUrl,
      });
    },
    ttl: {
      Interaction: TEN_MINUTES,
      Session: TEN_MINUTES,
      Grant: TEN_MINUTES,
      AuthorizationCode: 60,
      AccessToken: TEN_MINUTES,
      IdToken: TEN_MINUTES,
    },
  });
  // The SSO client goes back to whichever provider id an organization registered: a callback of this app, nothing else.
  const ssoCallback = new RegExp(`^${escapeRegExp(options.ssoClient.callbackPrefix)}[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$`);
  const listedRedirectUri = provider.Client.prototype.redirectUriAllowed;
  provider.Client.prototype.redirectUriAllowed = function (this: { clientId: string }, value: string) {
    if (this.clientId === options.ssoClient.clientId) return ssoCallback.test(value);
    return listedRedirectUri.call(this, value);
  };
  // Every URL it builds (discovery, redirects) starts with the issuer: the routes set the forwarded host and
  // protocol from it, whatever address or proxy the request came through (Vite's under `npm run dev`).
  provider.proxy = true;
  // Its pages and answers carry the same protections as the app's.
  provider.use(async (ctx, next) => {
    await next();
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("X-Frame-Options", "DENY");
    ctx.set(
      "Content-Security-Policy",
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'",
    );
  });
  const handle = provider.callback();

  /** The interaction a login page is for, checked against the page's address; null when it expired or never was. */
  async function findInteraction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<Interaction | null> {
    try {
      const interaction = await provider.interactionDetails(req, res);
      return interaction.uid === uid && interaction.prompt.name === "login" ? interaction : null;
    } catch (error) {
      if (error instanceof errors.SessionNotFound) return null;
      throw error;
    }
  }

  return {
    issuer: options.issuer,
    signInUrl: options.signInUrl,
    /** The SSO client's id, secret and callbacks, as `/dev/oidc/sso-client` shows them. */
    ssoClient: options.ssoClient,
    identities,
    findInteraction,

    /** Serves the provider's own endpoints (discovery, authorization, token, userinfo, keys). */
    handle: (req: IncomingMessage, res: ServerResponse) => handle(req, res),

    /**
     * Finishes the login step as `identity`; answers where the browser goes next (back to the provider). Each
     * sign-in starts afresh: the browser's earlier session here is ended first (the app asks for a login every
     * time anyway), so picking someone else never runs into the provider's log-out step.
     */
    async signIn(req: IncomingMessage, res: ServerResponse, interaction: Interaction, identity: DevIdentity) {
      const earlier = interaction.session?.uid;
      if (earlier) {
        delete interaction.session;
        await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
        await (await provider.Session.findByUid(earlier))?.destroy();
      }
      return provider.interactionResult(
        req,
        res,
        { login: { accountId: identity.sub, remember: false } },
        { mergeWithLastSubmission: false },
      );
    },

    /** Ends the sign-in as the person asked: the app receives access_denied. */
    cancel: (req: IncomingMessage, res: ServerResponse) =>
      provider.interactionResult(req, res, {
        error: "access_denied",
        error_description: "The sign-in was cancelled at the identity provider",
      }),

    /** An identity made up on the login page, kept for the next sign-in. */
    saveIdentity: (input: MadeUpIdentityInput) =>
      identities.save({ name: input.name, email: input.email, emailVerified: input.emailVerified === "on" }),
  };
}

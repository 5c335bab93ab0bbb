import { parseGenericState, type BetterAuthPlugin } from "better-auth";
import { tryGetCurrentAuthEndpointContext } from "@better-auth/core/context";
import type { DBFieldAttribute, DBFieldAttributeConfig } from "@better-auth/core/db";
import { sso } from "@better-auth/sso";
import {
  APIError,
  isAPIError,
  createAuthMiddleware,
  getSessionFromCtx,
  signInEmail,
  signUpEmail,
  type dispatchAuthEndpoint,
} from "better-auth/api";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { ERROR_CODES, SSO_ERROR_CODES } from "../../../common/error-codes";
import type { SignInErrorCode } from "../../../common/sign-in-errors";
import { ssoDomainSchema } from "../../../common/sso.schemas";
import { currentDatabase } from "../../db/current-database";
import type { Database } from "../../db/schema";
import { openSsoSecrets, sealSsoSecrets, withoutSsoSecrets, type SsoConfigColumn } from "../../db/sso-secrets";
import { safeSamlXmlValidator } from "../../http/hostile-xml";
import { CLIENT_IP_HEADER } from "../../http/middleware/client-ip";
import { samlify } from "../../http/samlify";
import { auditContextOf, auditedEndpoint, matches, matchesPluginEndpoints, type AuditedSession } from "../audit";
import type { TxtLookup } from "./sso.dns";
import { discoverBeforeRegistration, publicIssuerOrigin } from "./sso.oidc";
import {
  assertSigningAgrees,
  fetchIdentityProviderMetadata,
  hostileSamlResponseReason,
  samlRefusalCode,
  signInErrorUrl,
  testSignInPageUrl,
} from "./sso.saml";
import * as repository from "./sso.repository";
import {
  assertDomainAvailable,
  assertMayManageSso,
  assertPasswordSignInAllowed,
  assertSsoAddressOnDomain,
  assertSsoSeat,
  DNS_RECORD_PREFIX,
  findSignInProvider,
  provisionSsoMember,
  requestDomainVerification,
  serviceProviderValues,
  verifyDomain,
  type SsoLimits,
} from "./sso.service";

export type EnterpriseSsoOptions = {
  /** The app's database; queries inside better-auth go through `currentDatabase(db)`. */
  db: Kysely<Database>;
  baseUrl: string;
  /** The auth secret, which encrypts the providers' secrets at rest (server/db/sso-secrets.ts). */
  authSecret: string;
  /** The plan's seats, checked before a first SSO sign-in makes someone a member. */
  limits: SsoLimits;
  /** Where domain verification looks the TXT record up (sso.dns.ts). */
  lookup: TxtLookup;
};

/** Providers one user may register (@better-auth/sso counts them per registering user). */
const PROVIDERS_PER_USER = 20;

/**
 * Enterprise SSO as better-auth plugins: @better-auth/sso (OIDC and SAML providers of organizations, found by
 * e-mail domain or organization) configured for the app, then `ssoRules`, the app's rules around it. The plugin's
 * own organization provisioning is off: it would add members without the plan's seats and, after any social sign-in,
 * by domain; the app's just-in-time membership (`provisionSsoMember`) runs after every SSO sign-in instead.
 */
export function enterpriseSso(options: EnterpriseSsoOptions) {
  const plugin = sso({
    domainVerification: { enabled: true, tokenPrefix: DNS_RECORD_PREFIX },
    organizationProvisioning: { disabled: true },
    // An IdP's email_verified is not trusted; an address on the provider's verified domain is (provisionSsoMember).
    trustEmailVerified: false,
    providersLimit: PROVIDERS_PER_USER,
    provisionUserOnEveryLogin: true,
    provisionUser: async ({ user, provider }) => {
      const endpoint = tryGetCurrentAuthEndpointContext();
      const headers = endpoint?.headers;
      const audit = auditContextOf(
        { user: { id: user.id, email: user.email, name: user.name }, session: {} },
        { ipAddress: headers?.get(CLIENT_IP_HEADER), userAgent: headers?.get("user-agent") },
      );
      try {
        await provisionSsoMember(options.db, options.limits, {
          userId: user.id,
          email: user.email,
          providerId: provider.providerId,
          audit,
        });
      } catch (error) {
        // The browser is at the callback: it goes to the app's sign-in error page, which words the code.
        if (!(error instanceof DomainError)) throw error;
        const errorUrl = new URL(`${options.baseUrl}/auth/error`);
        errorUrl.searchParams.set("error", error.code);
        throw new APIError("FOUND", undefined, { Location: errorUrl.toString() });
      }
    },
    // The TXT record's token is a column of the app's (migration 0018) that the plugin never reads nor returns.
    // An assertion without NotBefore/NotOnOrAfter is refused rather than accepted with a warning.
    saml: { requireTimestamps: true },
  });
  // The OIDC client secret and the SAML private keys are stored encrypted: a transform of the plugin's own fields,
  // which its adapter applies to every write and read of the provider (ADR 0026).
  const { ssoProvider } = plugin.schema;
  const atRest = (column: SsoConfigColumn) => ({
    ...(ssoProvider.fields[column] as DBFieldAttribute),
    transform: secretsAtRest(column, options.authSecret),
  });
  const ssoPlugin = {
    ...plugin,
    schema: {
      ssoProvider: {
        ...ssoProvider,
        fields: { ...ssoProvider.fields, oidcConfig: atRest("oidcConfig"), samlConfig: atRest("samlConfig") },
      },
    },
  };
  // samlify parses through one module-wide validator, which the plugin sets when it is imported: ours replaces it
  // (set here, after that import) and refuses any document type, so entity expansion never reaches a parser.
  samlify.setSchemaValidator(safeSamlXmlValidator);
  const rules = ssoRules({ ...options, endpoints: ssoPlugin.endpoints });
  return [ssoPlugin, rules] as const;
}

/**
 * A configuration column's secrets at rest (server/db/sso-secrets.ts): encrypted on the way in (a registration, an
 * update), decrypted on the way out (every read of the plugin's, through its adapter), so the plugin sees the
 * configuration it wrote and only the steps that need a secret use it: the OIDC token request, the signing of a SAML
 * AuthnRequest and the decryption of an encrypted assertion. One encrypted under another auth secret reads without it.
 */
function secretsAtRest(column: SsoConfigColumn, key: string): NonNullable<DBFieldAttributeConfig["transform"]> {
  return {
    input: (value) => sealSsoSecrets(column, value, key),
    output: (value) => openSsoSecrets(column, value, key, "omit"),
  };
}

type Endpoint = Parameters<typeof dispatchAuthEndpoint>[0];
type SsoEndpoints = Record<
  | "acsEndpoint"
  | "registerSSOProvider"
  | "updateSSOProvider"
  | "deleteSSOProvider"
  | "signInSSO"
  | "requestDomainVerification"
  | "verifyDomain",
  Endpoint
>;

const recordOf = (value: unknown) =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);

/** A refusal of the app's during an SSO sign-in, as the plugin sends it on to the error page (an APIError, coded). */
async function asSignInRefusal(check: Promise<void>): Promise<void> {
  try {
    await check;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw new APIError("FORBIDDEN", { code: error.code, message: error.message });
  }
}

/** The domain of a request as stored: lowercased, without a trailing dot (the schema checked its form). */
function normalizeDomain(body: Record<string, unknown>): string | undefined {
  if (typeof body.domain !== "string") return undefined;
  const parsed = ssoDomainSchema.safeParse(body.domain);
  if (!parsed.success) return undefined;
  // In place: the audited call below and the plugin read this same body.
  body.domain = parsed.data;
  return parsed.data;
}

async function signedIn(ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]) {
  const session = (await getSessionFromCtx(ctx)) as AuditedSession | null;
  if (!session) throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
  return session;
}

/**
 * The app's SSO rules, as better-auth plugin hooks matched by @better-auth/sso's own endpoint definitions:
 * - register, update and delete a provider: owners and admins only, audited in the transaction of the plugin's write;
 * - the domain's proof: the app's own DNS record and lookup (through DNS_SERVERS or the development DNS server,
 *   which the plugin's process-wide resolver cannot use), a domain verified by one organization only;
 * - discovery (`/sign-in/sso` by address, domain or slug) finds the verified provider;
 * - the organization's requireSso policy on password sign-up and sign-in.
 */
export function ssoRules(options: EnterpriseSsoOptions & { endpoints: SsoEndpoints }) {
  const { db, endpoints } = options;
  const isPasswordSignIn = matches(signInEmail(), signUpEmail());
  const isUsernameSignIn = matchesPluginEndpoints("username", "signInUsername");
  const audited = <TPrior>(
    endpoint: Endpoint,
    input: Omit<Parameters<typeof auditedEndpoint<TPrior>>[0], "db" | "endpoint">,
  ) => auditedEndpoint<TPrior>({ db, endpoint, ...input });
  const caller = (session: AuditedSession | null) => {
    if (!session) throw new DomainError(ERROR_CODES.UNAUTHORIZED, "Unauthorized");
    return session.user.id;
  };
  return {
    id: "sso-rules",
    $ERROR_CODES: SSO_ERROR_CODES,
    init: () => ({
      options: {
        databaseHooks: {
          user: {
            create: {
              // Inside the sign-in's transaction: the refusal rolls the new user back, and the browser goes to the
              // sign-in error page with the code (the plugin's redirect; at the SAML ACS, the 303 below).
              async before(user, ctx) {
                if (!ctx?.path?.startsWith("/sso/")) return;
                const providerId = text(recordOf(ctx.params).providerId) ?? "";
                await asSignInRefusal(
                  assertSsoAddressOnDomain(await currentDatabase(db), { providerId, email: user.email }),
                );
              },
            },
          },
          session: {
            create: {
              // Likewise before the session: a full organization's plan refuses the person here, not after the commit.
              async before(session, ctx) {
                if (!ctx?.path?.startsWith("/sso/")) return;
                const providerId = text(recordOf(ctx.params).providerId) ?? "";
                await asSignInRefusal(
                  assertSsoSeat(await currentDatabase(db), options.limits, { providerId, userId: session.userId }),
                );
              },
            },
          },
        },
      },
    }),
    hooks: {
      before: [
        hostileSamlResponsesToErrorPage(endpoints.acsEndpoint, options),
        {
          // The domain as stored, and a SAML provider's service-provider identity under BASE_URL by default.
          matcher: matches(endpoints.registerSSOProvider, endpoints.updateSSOProvider),
          handler: createAuthMiddleware(async (ctx) => {
            const body = recordOf(ctx.body);
            normalizeDomain(body);
            const providerId = text(body.providerId);
            const saml = recordOf(body.samlConfig);
            // IdP metadata by URL: read here (the plugin takes the XML), under the rules of sso.saml.ts.
            const idpMetadata = recordOf(saml.idpMetadata);
            const metadataUrl = text(idpMetadata.metadataUrl);
            if (metadataUrl && !text(idpMetadata.metadata)) {
              idpMetadata.metadata = await fetchIdentityProviderMetadata(metadataUrl, options.baseUrl);
              delete idpMetadata.metadataUrl;
            }
            assertSigningAgrees(saml);
            if (ctx.path === endpoints.registerSSOProvider.path && providerId && body.samlConfig) {
              const { entityId } = serviceProviderValues(options.baseUrl, providerId);
              saml.spMetadata = { entityID: entityId, ...recordOf(saml.spMetadata) };
              saml.audience ??= entityId;
            }
          }),
        },
        audited(endpoints.registerSSOProvider, {
          // Before the transaction: who may register (checked again under `lock`), then the OIDC discovery, so no
          // transaction is open while the issuer's document is fetched.
          context: async (ctx, body, session) => {
            await assertMayManageSso(await currentDatabase(db), text(body.organizationId) ?? "", caller(session));
            const origin = await publicIssuerOrigin(body.issuer);
            const trusted = origin ? { trustedOrigins: [...ctx.context.trustedOrigins, origin] } : {};
            const context = { ...ctx.context, ...trusted };
            await discoverBeforeRegistration(body, (url) => context.isTrustedOrigin(url));
            return trusted;
          },
          lock: async (trx, body, session) => {
            const organizationId = text(body.organizationId) ?? "";
            await assertMayManageSso(trx, organizationId, caller(session));
            const domain = text(body.domain);
            if (domain) await assertDomainAvailable(trx, domain, organizationId);
          },
          record: async ({ db: trx, response }) => {
            const provider = recordOf(response);
            const providerId = text(provider.providerId);
            const organizationId = text(provider.organizationId);
            if (!providerId || !organizationId) return [];
            const token = text(provider.domainVerificationToken);
            if (token) await repository.setDomainVerificationToken(trx, providerId, token);
            return [
              {
                action: "organization.sso_provider_registered",
                target: { type: "organization", id: organizationId },
                organization: { id: organizationId },
                details: {
                  providerId,
                  domain: provider.domain,
                  type: provider.samlConfig ? "saml" : "oidc",
                  issuer: provider.issuer,
                },
              },
            ];
          },
        }),
        audited<repository.SsoProviderRow | undefined>(endpoints.updateSSOProvider, {
          lock: async (trx, body, session) => {
            const provider = await repository.findProvider(trx, text(body.providerId) ?? "");
            if (!provider?.organizationId) throw DomainError.of(SSO_ERROR_CODES.SSO_PROVIDER_NOT_FOUND);
            await assertMayManageSso(trx, provider.organizationId, caller(session));
            const domain = text(body.domain);
            if (domain) await assertDomainAvailable(trx, domain, provider.organizationId);
          },
          prior: (trx, { body }) => repository.findProvider(trx, text(body.providerId) ?? ""),
          record: async ({ db: trx, prior, body }) => {
            if (!prior?.organizationId) return [];
            // A changed provider is tested again before it counts for requiring SSO.
            await repository.clearFirstSignIn(trx, prior.providerId);
            return [
              {
                action: "organization.sso_provider_updated",
                target: { type: "organization", id: prior.organizationId },
                organization: { id: prior.organizationId },
                details: {
                  providerId: prior.providerId,
                  fields: Object.keys(body).filter((key) => key !== "providerId"),
                  ...(text(body.domain) && body.domain !== prior.domain ? { from: prior.domain, to: body.domain } : {}),
                },
              },
            ];
          },
        }),
        audited<repository.SsoProviderRow | undefined>(endpoints.deleteSSOProvider, {
          lock: async (trx, body, session) => {
            const provider = await repository.findProvider(trx, text(body.providerId) ?? "");
            if (!provider?.organizationId) throw DomainError.of(SSO_ERROR_CODES.SSO_PROVIDER_NOT_FOUND);
            await assertMayManageSso(trx, provider.organizationId, caller(session));
          },
          prior: (trx, { body }) => repository.findProvider(trx, text(body.providerId) ?? ""),
          record: ({ prior }) =>
            prior?.organizationId
              ? [
                  {
                    action: "organization.sso_provider_deleted",
                    target: { type: "organization", id: prior.organizationId },
                    organization: { id: prior.organizationId },
                    details: { providerId: prior.providerId, domain: prior.domain },
                  },
                ]
              : [],
        }),
        {
          matcher: matches(endpoints.requestDomainVerification),
          handler: createAuthMiddleware(async (ctx) => {
            const session = await signedIn(ctx);
            const providerId = text(recordOf(ctx.body).providerId) ?? "";
            return ctx.json(
              await requestDomainVerification(await currentDatabase(db), { providerId, userId: session.user.id }),
            );
          }),
        },
        {
          matcher: matches(endpoints.verifyDomain),
          handler: createAuthMiddleware(async (ctx) => {
            const session = await signedIn(ctx);
            const providerId = text(recordOf(ctx.body).providerId) ?? "";
            const audit = auditContextOf(session, {
              ipAddress: ctx.headers?.get(CLIENT_IP_HEADER),
              userAgent: ctx.headers?.get("user-agent"),
            });
            return ctx.json(await verifyDomain(db, options.lookup, { providerId, userId: session.user.id, audit }));
          }),
        },
        {
          // Discovery by address, domain or slug names the verified provider; without one, the plugin's own lookup
          // answers (an unverified provider: 401 "Provider domain has not been verified"; none: 404).
          matcher: matches(endpoints.signInSSO),
          handler: createAuthMiddleware(async (ctx) => {
            const body = recordOf(ctx.body);
            if (text(body.providerId)) return;
            const providerId = await findSignInProvider(await currentDatabase(db), {
              email: text(body.email),
              domain: text(body.domain),
              organizationSlug: text(body.organizationSlug),
            });
            if (providerId) return { context: { body: { ...body, providerId } } };
          }),
        },
        {
          matcher: (context) => isPasswordSignIn(context) || isUsernameSignIn(context),
          handler: createAuthMiddleware(async (ctx) => {
            const body = recordOf(ctx.body);
            const trx = await currentDatabase(db);
            if (ctx.path === "/sign-in/username") {
              const username = text(body.username);
              if (username) await assertPasswordSignInAllowed(trx, { username });
              return;
            }
            const email = text(body.email);
            if (email) await assertPasswordSignInAllowed(trx, { email, isSignUp: ctx.path === signUpEmail().path });
          }),
        },
      ],
      after: [
        samlRefusalsToErrorPage(endpoints.acsEndpoint, options),
        {
          // The plugin's registration answer repeats the OIDC client secret and the SAML private keys (and their
          // passphrases) it was sent; its other answers leave them out, and so does this one: an answer is logged,
          // cached and shown.
          matcher: matches(endpoints.registerSSOProvider),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (isAPIError(returned) || returned instanceof Response || !returned || typeof returned !== "object")
              return;
            const provider = recordOf(returned);
            return ctx.json({
              ...provider,
              oidcConfig: withoutSsoSecrets("oidcConfig", provider.oidcConfig),
              samlConfig: withoutSsoSecrets("samlConfig", provider.samlConfig),
            });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

/** A plugin's before- or after-hook (the two have one shape). */
type Hook = NonNullable<NonNullable<BetterAuthPlugin["hooks"]>["before"]>[number];
type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * Where the ACS sends a person's browser, which posted the SAML response, when it refuses the response: the sign-in
 * error page (303), with a code of its fixed list (common/sign-in-errors.ts), which it words; a refused test sign-in
 * goes back to the settings page it came from instead (`testPage`). Logged with the reason.
 */
function refuseSamlResponse(
  ctx: HookContext,
  baseUrl: string,
  refusal: { code: SignInErrorCode; reason: string; description?: string },
  testPage: string | null = null,
): Response {
  const providerId = text(recordOf(ctx.params).providerId);
  ctx.context.logger.warn("SSO: a SAML response was refused", {
    providerId,
    code: refusal.code,
    reason: refusal.reason,
  });
  // A Response, not a thrown error: better-auth would keep a redirect's 302 for an error.
  ctx.context.responseHeaders?.delete("location");
  return new Response(null, { status: 303, headers: { location: testPage ?? signInErrorUrl(baseUrl, refusal) } });
}

/**
 * The before-hook of the ACS: a SAML response with a document type (entity expansion, external entities) is refused
 * before any parser, back to the SSO settings page when a test sign-in started there. Typed as a hook, like the one
 * below.
 */
function hostileSamlResponsesToErrorPage(acsEndpoint: Endpoint, options: EnterpriseSsoOptions): Hook {
  return {
    matcher: matches(acsEndpoint),
    handler: createAuthMiddleware(async (ctx) => {
      const samlResponse = text(recordOf(ctx.body).SAMLResponse);
      const reason = samlResponse && hostileSamlResponseReason(samlResponse);
      if (!reason) return;
      const code = SSO_ERROR_CODES.SSO_SAML_RESPONSE_REFUSED.code;
      const testPage = await refusedTestSignInPage(ctx, options, code);
      return refuseSamlResponse(ctx, options.baseUrl, { code, reason }, testPage);
    }),
  };
}

/**
 * Before the plugin has read it, where a refused sign-in would go back to: the SSO settings page when a test sign-in
 * started there (`testSignInPageUrl`), from the relay state's error address; null otherwise. Reading the relay state
 * uses it up, as the plugin would: the response is refused either way.
 */
async function refusedTestSignInPage(
  ctx: HookContext,
  options: EnterpriseSsoOptions,
  code: SignInErrorCode,
): Promise<string | null> {
  const relayState = text(recordOf(ctx.body).RelayState);
  const providerId = text(recordOf(ctx.params).providerId);
  if (!relayState || !providerId) return null;
  const state = await parseGenericState(ctx, relayState, {
    cookieName: "relay_state",
    skipStateCookieCheck: true,
  }).catch(() => null);
  const errorUrl = text(state?.errorURL);
  const provider = errorUrl && (await repository.findProvider(await currentDatabase(options.db), providerId));
  return provider ? testSignInPageUrl(options.baseUrl, provider, errorUrl, code) : null;
}

/**
 * The after-hook of the ACS (typed as a hook, so the plugins' inferred types never name the global Response's own
 * package). The plugin answers a refused SAML response with a redirect to wherever the sign-in started (`?error=…`),
 * or with JSON (an unknown provider, one whose domain is not verified): each becomes a 303 to the sign-in error page
 * with the code `samlRefusalCode` picks, and no session cookie (set only on success). A redirect back to the SSO
 * settings page a test sign-in of the provider started from goes there, with that code (`testSignInPageUrl`).
 */
function samlRefusalsToErrorPage(acsEndpoint: Endpoint, options: EnterpriseSsoOptions): Hook {
  return {
    matcher: matches(acsEndpoint),
    handler: createAuthMiddleware(async (ctx) => {
      const returned = ctx.context.returned;
      if (ctx.context.newSession || !isAPIError(returned)) return;
      const redirect = errorRedirectOf(returned);
      // A redirect without an error is no refusal (an ACS visited again by a signed-in browser).
      if (returned.statusCode === 302 && !redirect) return;
      const providerId = text(recordOf(ctx.params).providerId) ?? "";
      const provider = await repository.findProvider(await currentDatabase(options.db), providerId);
      const code = samlRefusalCode(redirect?.error, provider);
      const testPage =
        provider && redirect ? testSignInPageUrl(options.baseUrl, provider, redirect.location, code) : null;
      const refusal = {
        code,
        reason: redirect?.description ?? redirect?.error ?? returned.message,
        description: code === redirect?.error ? redirect.description : undefined,
      };
      return refuseSamlResponse(ctx, options.baseUrl, refusal, testPage);
    }),
  };
}

/**
 * The error a redirect of the plugin's ACS carries (`?error=…&error_description=…`) and where it leads, or null for
 * another answer.
 */
function errorRedirectOf(returned: APIError): { error: string; description?: string; location: string } | null {
  if (returned.statusCode !== 302) return null;
  const location = new Headers(returned.headers as ConstructorParameters<typeof Headers>[0]).get("location");
  if (!location) return null;
  const params = new URL(location, "http://relative.invalid").searchParams;
  const error = params.get("error");
  return error ? { error, description: params.get("error_description") ?? undefined, location } : null;
}

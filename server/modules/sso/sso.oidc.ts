import { lookup } from "node:dns/promises";
import { isPublicRoutableHost } from "@better-auth/core/utils/host";
import { DiscoveryError, discoverOIDCConfig, type DiscoveryErrorCode, type HydratedOIDCConfig } from "@better-auth/sso";
import { APIError } from "better-auth/api";

/**
 * OIDC around @better-auth/sso: the issuer a registration may discover from, and its discovery, run before the
 * registration's transaction opens.
 */

/**
 * The issuer's origin when the IdP is on the public internet: an https URL whose host is, and resolves only to,
 * publicly routable addresses. @better-auth/sso fetches discovery documents only from trusted origins; an
 * organization's IdP (Okta, Entra ID, a Keycloak on the internet) is trusted for its own registration, and an
 * internal one needs TRUSTED_ORIGINS (docs/sso.md).
 */
export async function publicIssuerOrigin(issuer: unknown): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(String(issuer));
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" || !isPublicRoutableHost(url.hostname)) return undefined;
  const addresses = await lookup(url.hostname, { all: true }).catch(() => []);
  return addresses.length > 0 && addresses.every(({ address }) => isPublicRoutableHost(address))
    ? url.origin
    : undefined;
}

type Status = ConstructorParameters<typeof APIError>[0];

/**
 * How a failed discovery is answered: the status and message the plugin gives when it discovers itself, so moving the
 * fetch out of its endpoint changes no answer. Typed by the plugin's codes: a code a later version adds fails the
 * type check here.
 */
const DISCOVERY_REFUSALS: Record<DiscoveryErrorCode, { status: Status; message: (reason: string) => string }> = {
  discovery_timeout: { status: "BAD_GATEWAY", message: (reason) => `OIDC discovery timed out: ${reason}` },
  discovery_unexpected_error: { status: "BAD_GATEWAY", message: (reason) => `OIDC discovery failed: ${reason}` },
  discovery_not_found: {
    status: "BAD_REQUEST",
    message: (reason) =>
      "OIDC discovery endpoint not found. The issuer may not support OIDC discovery, or the URL is incorrect. " +
      reason,
  },
  discovery_invalid_url: { status: "BAD_REQUEST", message: (reason) => `Invalid OIDC endpoint URL: ${reason}` },
  discovery_untrusted_origin: {
    status: "BAD_REQUEST",
    message: (reason) => `Untrusted OIDC discovery URL: ${reason}`,
  },
  discovery_private_host: { status: "BAD_REQUEST", message: (reason) => reason },
  oidc_endpoint_redirect: { status: "BAD_REQUEST", message: (reason) => reason },
  discovery_invalid_json: {
    status: "BAD_REQUEST",
    message: (reason) => `OIDC discovery returned invalid data: ${reason}`,
  },
  discovery_incomplete: {
    status: "BAD_REQUEST",
    message: (reason) => `OIDC discovery document is missing required fields: ${reason}`,
  },
  issuer_mismatch: { status: "BAD_REQUEST", message: (reason) => `OIDC issuer mismatch: ${reason}` },
  unsupported_token_auth_method: {
    status: "BAD_REQUEST",
    message: (reason) => `Incompatible OIDC provider: ${reason}`,
  },
};

const recordOf = (value: unknown) =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);

/**
 * An OIDC registration's discovery, before its transaction: the issuer's discovery document is fetched (up to the
 * plugin's 10 seconds) while no transaction is open, and its endpoints are written into the body with
 * `skipDiscovery`, so the plugin stores them without a fetch of its own inside the transaction (on SQLite, that fetch
 * held the writer lock). Values the owner sent win over discovered ones, as in the plugin's own discovery. The
 * issuer becomes the document's spelling of it (the same URL up to a trailing slash), which ID tokens carry as `iss`.
 * A failed discovery is answered as the plugin answers it. A body without `oidcConfig`, or that skips discovery
 * itself, is left as it is.
 */
export async function discoverBeforeRegistration(
  body: Record<string, unknown>,
  isTrustedOrigin: (url: string) => boolean,
): Promise<void> {
  const oidcConfig = recordOf(body.oidcConfig);
  const issuer = text(body.issuer);
  if (!oidcConfig || oidcConfig.skipDiscovery === true || !issuer) return;
  let discovered: HydratedOIDCConfig;
  try {
    discovered = await discoverOIDCConfig({
      issuer,
      existingConfig: {
        discoveryEndpoint: text(oidcConfig.discoveryEndpoint),
        authorizationEndpoint: text(oidcConfig.authorizationEndpoint),
        tokenEndpoint: text(oidcConfig.tokenEndpoint),
        jwksEndpoint: text(oidcConfig.jwksEndpoint),
        userInfoEndpoint: text(oidcConfig.userInfoEndpoint),
        tokenEndpointAuthentication:
          oidcConfig.tokenEndpointAuthentication as HydratedOIDCConfig["tokenEndpointAuthentication"],
      },
      isTrustedOrigin,
    });
  } catch (error) {
    if (!(error instanceof DiscoveryError)) throw error;
    const refusal = DISCOVERY_REFUSALS[error.code];
    throw new APIError(refusal.status, { code: error.code, message: refusal.message(error.message) });
  }
  body.issuer = discovered.issuer;
  Object.assign(oidcConfig, {
    discoveryEndpoint: discovered.discoveryEndpoint,
    authorizationEndpoint: discovered.authorizationEndpoint,
    tokenEndpoint: discovered.tokenEndpoint,
    jwksEndpoint: discovered.jwksEndpoint,
    userInfoEndpoint: discovered.userInfoEndpoint,
    tokenEndpointAuthentication: discovered.tokenEndpointAuthentication,
    skipDiscovery: true,
  });
}

import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { Kysely } from "kysely";
import { DomainError } from "../../../common/domain-error";
import { SSO_ERROR_CODES } from "../../../common/error-codes";
import { isSignInErrorCode, type SignInErrorCode } from "../../../common/sign-in-errors";
import type { Database } from "../../db/schema";
import { hostileXmlReason } from "../../http/hostile-xml";
import * as repository from "./sso.repository";
import type { SsoProviderRow } from "./sso.repository";
import { serviceProviderValues } from "./sso.service";

/**
 * SAML around @better-auth/sso: IdP metadata read from a URL at registration, the checks the app adds at the
 * Assertion Consumer Service and where it sends a refused response, and the registered providers as the development
 * SAML IdP sees them.
 */

/** What the plugin accepts as IdP metadata (its own limit, DEFAULT_MAX_SAML_METADATA_SIZE). */
const MAX_METADATA_BYTES = 100 * 1024;
const METADATA_TIMEOUT_MS = 10_000;

/** Addresses a metadata URL may not lead to: this machine and private networks (the server would fetch them). */
const PRIVATE_ADDRESSES = (() => {
  const list = new BlockList();
  for (const [network, prefix] of [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.168.0.0", 16],
  ] as const) {
    list.addSubnet(network, prefix, "ipv4");
  }
  for (const [network, prefix] of [
    ["::", 128],
    ["::1", 128],
    ["fc00::", 7],
    ["fe80::", 10],
    ["::ffff:0:0", 96],
  ] as const) {
    list.addSubnet(network, prefix, "ipv6");
  }
  return list;
})();

const unreadable = (reason: string) => DomainError.of(SSO_ERROR_CODES.SSO_SAML_METADATA_UNREADABLE, { reason });

/**
 * The IdP metadata XML at `url`, for an owner who registers a SAML provider by its metadata URL. An https URL on a
 * public address, or any URL under the app's own origin (the development SAML IdP); no redirects, 10 s, 100 KB, no
 * document type. Refusals are 400 SSO_SAML_METADATA_UNREADABLE with the reason in `details`.
 */
export async function fetchIdentityProviderMetadata(url: string, appBaseUrl: string): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw unreadable("the metadata URL is not a URL");
  }
  const isOwnOrigin = parsed.origin === new URL(appBaseUrl).origin;
  if (!isOwnOrigin) {
    if (parsed.protocol !== "https:") throw unreadable("the metadata URL must be https");
    const host = parsed.hostname.replace(/^\[|\]$/g, "");
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch {
      throw unreadable(`${parsed.hostname} could not be resolved`);
    }
    if (addresses.some((address) => PRIVATE_ADDRESSES.check(address, isIP(address) === 6 ? "ipv6" : "ipv4"))) {
      throw unreadable(`${parsed.hostname} is a private or local address`);
    }
  }
  let response: Response;
  try {
    response = await fetch(parsed, {
      redirect: "error",
      signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
      headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" },
    });
  } catch {
    throw unreadable(`${parsed.origin} did not answer`);
  }
  if (!response.ok) throw unreadable(`the metadata URL answered ${response.status}`);
  const text = await readBounded(response, MAX_METADATA_BYTES);
  if (text === null) throw unreadable(`the metadata is larger than ${MAX_METADATA_BYTES / 1024} KB`);
  const hostile = hostileXmlReason(text);
  if (hostile) throw unreadable(`the metadata is refused: ${hostile}`);
  if (!/<(?:\w+:)?EntityDescriptor[\s>]/.test(text)) throw unreadable("the URL does not serve SAML metadata");
  return text;
}

/** The body as text, or null once it passes `limit` bytes (the rest is not read). */
/**
 * Refuses a SAML configuration whose signing of AuthnRequests (`authnRequestsSigned`) disagrees with its IdP
 * metadata's `WantAuthnRequestsSigned` (absent means false): samlify refuses to build the request, so every sign-in
 * through the provider would fail. Checked where the metadata is in the body (a registration, or an update of it).
 */
export function assertSigningAgrees(saml: Record<string, unknown>): void {
  const metadata = recordOf(saml.idpMetadata).metadata;
  if (typeof metadata !== "string") return;
  const idpWantsSigned = /\bWantAuthnRequestsSigned\s*=\s*["']true["']/.test(metadata);
  const requestsSigned = saml.authnRequestsSigned === true;
  if (idpWantsSigned !== requestsSigned)
    throw DomainError.of(SSO_ERROR_CODES.SSO_SAML_SIGNING_CONFLICT, { idpWantsSigned, requestsSigned });
}

async function readBounded(response: Response, limit: number): Promise<string | null> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The base64 SAMLResponse's XML when the app's checks refuse it: why, or null. */
export function hostileSamlResponseReason(samlResponse: string): string | null {
  const xml = Buffer.from(samlResponse.replace(/\s+/g, ""), "base64").toString("utf8");
  return hostileXmlReason(xml);
}

/**
 * The code a refused SAML response ends with on the sign-in error page: a provider whose domain is not verified says
 * so; a code of the page's list that the plugin sent is kept (the app's own refusals inside the sign-in: the plan's
 * seats, an address outside the domain; a ban; an account it would not link); any other refusal (the signature, the
 * time window, the audience or recipient, a replay, a request it never made, hostile XML) is the SAML refusal.
 */
export function samlRefusalCode(
  error: string | undefined,
  provider: Pick<SsoProviderRow, "domainVerified"> | undefined,
): SignInErrorCode {
  if (provider && !provider.domainVerified) return SSO_ERROR_CODES.SSO_DOMAIN_NOT_VERIFIED.code;
  return isSignInErrorCode(error) ? error : SSO_ERROR_CODES.SSO_SAML_RESPONSE_REFUSED.code;
}

/** The sign-in error page's address for a refusal: its code, and the description a ban's end is read from. */
export function signInErrorUrl(baseUrl: string, refusal: { code: SignInErrorCode; description?: string }): string {
  const url = new URL(`${baseUrl}/auth/error`);
  url.searchParams.set("error", refusal.code);
  if (refusal.description) url.searchParams.set("error_description", refusal.description);
  return url.toString();
}

/**
 * Where a refused test sign-in goes back to: the organization's SSO settings page it was started from (its
 * `errorCallbackURL`, `?test=<providerId>`: web/features/organizations/api/sso.ts), with the refusal's code, which the
 * page words for the admin who tests. Only when the plugin's redirect for the refusal (`location`) is that page of the
 * provider's own organization, for that provider; null for any other sign-in, which ends on the sign-in error page.
 * The address is built here: nothing of the redirect but the match is used.
 */
export function testSignInPageUrl(
  baseUrl: string,
  provider: Pick<SsoProviderRow, "providerId" | "organizationId">,
  location: string,
  code: SignInErrorCode,
): string | null {
  if (!provider.organizationId) return null;
  const page = new URL(`${baseUrl}/organizations/${encodeURIComponent(provider.organizationId)}/settings/sso`);
  const redirect = new URL(location, baseUrl);
  const isThatPage = redirect.origin === page.origin && redirect.pathname === page.pathname;
  if (!isThatPage || redirect.searchParams.get("test") !== provider.providerId) return null;
  page.searchParams.set("test", provider.providerId);
  page.searchParams.set("error", code);
  return page.toString();
}

const recordOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * A SAML provider registered in this app whose IdP is the development SAML IdP, as that IdP needs to know it: the
 * service provider's entity ID and ACS URL. Found by the ACS URL an AuthnRequest names (or the entity ID, which
 * names the provider too); null unless the request's Issuer is that provider's entity ID.
 */
export async function findDevelopmentServiceProvider(
  db: Kysely<Database>,
  input: {
    baseUrl: string;
    identityProvider: { entityId: string; ssoUrl: string };
    issuer: string;
    assertionConsumerServiceUrl?: string;
  },
): Promise<{ entityId: string; assertionConsumerServiceUrls: string[] } | null> {
  const acsPrefix = `${input.baseUrl}/api/auth/sso/saml2/sp/acs/`;
  let providerId: string | null = null;
  if (input.assertionConsumerServiceUrl?.startsWith(acsPrefix)) {
    providerId = decodeURIComponent(input.assertionConsumerServiceUrl.slice(acsPrefix.length));
  } else if (!input.assertionConsumerServiceUrl) {
    try {
      providerId = new URL(input.issuer).searchParams.get("providerId");
    } catch {
      providerId = null;
    }
  }
  if (!providerId) return null;
  const provider = await repository.findProvider(db, providerId);
  if (!provider?.samlConfig) return null;
  let config: Record<string, unknown>;
  try {
    config = recordOf(JSON.parse(provider.samlConfig));
  } catch {
    return null;
  }
  const idp = recordOf(config.idpMetadata);
  const { entityId: idpEntityId, ssoUrl } = input.identityProvider;
  const isAgainstThisIdp =
    idp.entityID === idpEntityId ||
    (typeof idp.metadata === "string" && idp.metadata.includes(`entityID="${idpEntityId}"`)) ||
    config.entryPoint === ssoUrl;
  const entityId = recordOf(config.spMetadata).entityID ?? config.issuer ?? provider.issuer;
  if (!isAgainstThisIdp || typeof entityId !== "string" || entityId !== input.issuer) return null;
  return { entityId, assertionConsumerServiceUrls: [serviceProviderValues(input.baseUrl, providerId).acsUrl] };
}

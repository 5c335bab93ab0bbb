import { z } from "zod";

/**
 * Enterprise SSO's shared contracts (docs/sso.md): the names an organization gives its identity provider and its
 * e-mail domain, and what `GET /api/organizations/{id}/sso` answers.
 */

export const SSO_PROVIDER_ID_MAX_LENGTH = 40;
export const SSO_DOMAIN_MAX_LENGTH = 253;

/**
 * A provider's id: it names the callback URL (`/api/auth/sso/callback/<id>`) and the DNS record
 * (`_atrium-sso-<id>.<domain>`, one label of at most 63 characters), so letters, digits and dashes only.
 */
export const ssoProviderIdSchema = z
  .string()
  .max(SSO_PROVIDER_ID_MAX_LENGTH, `Use at most ${SSO_PROVIDER_ID_MAX_LENGTH} characters`)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, "Use lowercase letters, digits and dashes (not at either end)");

/** A DNS name of letters, digits and dashes (IDNs in their xn-- form), at least two labels: `example.com`. */
const DOMAIN_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The one e-mail domain a provider serves, compared without case (stored lowercase, without a trailing dot). */
export const ssoDomainSchema = z
  .string()
  .max(SSO_DOMAIN_MAX_LENGTH, `Use at most ${SSO_DOMAIN_MAX_LENGTH} characters`)
  .transform((value) => value.trim().toLowerCase().replace(/\.$/, ""))
  .pipe(z.string().regex(DOMAIN_PATTERN, "Enter a domain name such as example.com"));

/** Where a customer's IdP administrator sends people back, and what they paste into the IdP. */
export type SsoServiceProviderValues = {
  /** OIDC: the redirect (callback) URI to register at the IdP. */
  oidcRedirectUri: string;
  /** SAML: the assertion consumer service (ACS) URL. */
  acsUrl: string;
  /** SAML: the service provider's entity id (its metadata URL). */
  entityId: string;
  /** SAML: the service provider's metadata document. */
  metadataUrl: string;
};

/** The DNS record that proves the domain: `TXT <name> "<value>"`. */
export type SsoDomainRecord = { type: "TXT"; name: string; value: string };

/** One identity provider of an organization, as its owners and admins see it (secrets never leave the server). */
export type OrganizationSsoProvider = {
  providerId: string;
  type: "oidc" | "saml";
  issuer: string;
  domain: string;
  domainVerified: boolean;
  /** The record to publish while the domain is unverified; null once verified. */
  domainRecord: SsoDomainRecord | null;
  /** OIDC: the client id registered at the IdP (the secret is never shown). */
  clientId: string | null;
  serviceProvider: SsoServiceProviderValues;
};

/** `GET /api/organizations/{id}/sso`. */
export type OrganizationSso = {
  providers: OrganizationSsoProvider[];
  /** The organization's policy: password sign-in on its verified domains is refused (owners keep a way in). */
  requireSso: boolean;
  /** Where people of the organization start an SSO sign-in: `POST /api/auth/sign-in/sso { organizationSlug }`. */
  organizationSlug: string;
};

import { z } from "zod";
import { emailSchema } from "./account.schemas";
import { URL_MAX_LENGTH } from "./account-limits";

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
  /**
   * When someone first signed in through it since it was registered or last changed (ISO 8601), null before: the
   * test that requiring SSO asks for.
   */
  firstSignInAt: string | null;
  serviceProvider: SsoServiceProviderValues;
};

/** `GET /api/organizations/{id}/sso`. */
export type OrganizationSso = {
  providers: OrganizationSsoProvider[];
  /** The organization's policy: password sign-in on its verified domains is refused (owners keep a way in). */
  requireSso: boolean;
  /** People with a verified address on a verified domain may join without an invitation (docs/sso.md). */
  allowDomainJoin: boolean;
  /** Where people of the organization start an SSO sign-in: `POST /api/auth/sign-in/sso { organizationSlug }`. */
  organizationSlug: string;
};

// The forms of the web app: the sign-in page's "Continue with SSO" and an organization's connection setup.

/** "Continue with SSO": the work e-mail whose domain names the organization's identity provider. */
export const ssoSignInSchema = z.object({ email: emailSchema });
export type SsoSignInInput = z.infer<typeof ssoSignInSchema>;

export const SSO_PROTOCOLS = ["oidc", "saml"] as const;
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

export const SSO_CLIENT_ID_MAX_LENGTH = 512;
export const SSO_CLIENT_SECRET_MAX_LENGTH = 1024;
/** IdP metadata and certificates are bounded like the plugin bounds metadata (100 KB). */
export const SAML_METADATA_MAX_LENGTH = 100 * 1024;
export const SAML_CERTIFICATE_MAX_LENGTH = 16 * 1024;

const atMost = (max: number) => `Use at most ${max} characters`;

/** The domain field of the setup forms: the shared rule, with its own word for an empty field. */
const domainFieldSchema = z
  .string({ error: "Enter your company's e-mail domain" })
  .trim()
  .min(1, { error: "Enter your company's e-mail domain", abort: true })
  .pipe(ssoDomainSchema);

const httpsUrl = (missing: string) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, missing)
    .max(URL_MAX_LENGTH, atMost(URL_MAX_LENGTH))
    .pipe(z.url({ protocol: /^https?$/, error: "Enter a full address starting with https://" }));

/** The identity provider's values for an OIDC connection: its issuer (discovery runs from it) and our client. */
export const oidcConnectionSchema = z.object({
  domain: domainFieldSchema,
  issuer: httpsUrl("Enter the issuer URL"),
  clientId: z
    .string({ error: "Enter the client ID" })
    .trim()
    .min(1, "Enter the client ID")
    .max(SSO_CLIENT_ID_MAX_LENGTH, atMost(SSO_CLIENT_ID_MAX_LENGTH)),
  clientSecret: z
    .string({ error: "Enter the client secret" })
    .trim()
    .min(1, "Enter the client secret")
    .max(SSO_CLIENT_SECRET_MAX_LENGTH, atMost(SSO_CLIENT_SECRET_MAX_LENGTH)),
});
export type OidcConnectionInput = z.infer<typeof oidcConnectionSchema>;

/** How the IdP's values are given: its metadata (pasted or uploaded), its metadata URL, or by hand. */
export const SAML_SOURCES = ["metadata-xml", "metadata-url", "manual"] as const;
export type SamlSource = (typeof SAML_SOURCES)[number];

const certificateSchema = z
  .string({ error: "Paste the signing certificate" })
  .trim()
  .min(1, { error: "Paste the signing certificate", abort: true })
  .max(SAML_CERTIFICATE_MAX_LENGTH, atMost(SAML_CERTIFICATE_MAX_LENGTH))
  .refine((pem) => /^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/.test(pem), {
    error: "Paste the certificate in PEM form, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----",
  });

const metadataXmlSchema = z
  .string()
  .trim()
  .min(1, { error: "Paste or upload the identity provider's metadata", abort: true })
  .max(SAML_METADATA_MAX_LENGTH, "The metadata is larger than 100 KB")
  .refine((xml) => xml.startsWith("<") && xml.includes("EntityDescriptor"), {
    error: "This is not SAML metadata: it should be XML with an EntityDescriptor",
  });
const entityIdSchema = z
  .string()
  .trim()
  .min(1, "Enter the identity provider's entity ID")
  .max(URL_MAX_LENGTH, atMost(URL_MAX_LENGTH));

/** What each source needs; the others' fields are ignored (the form keeps what was typed in them). */
const SAML_SOURCE_FIELDS = {
  "metadata-xml": { metadataXml: metadataXmlSchema },
  "metadata-url": { metadataUrl: httpsUrl("Enter the metadata URL") },
  manual: {
    entityId: entityIdSchema,
    entryPoint: httpsUrl("Enter the single sign-on URL"),
    certificate: certificateSchema,
  },
} as const;

const optionalText = z.string().default("");

/** The identity provider's values for a SAML connection: the domain, how they are given, and that source's fields. */
export const samlConnectionSchema = z
  .object({
    source: z.enum(SAML_SOURCES, { error: "Choose how you give the identity provider's values" }),
    // Checked with the source's fields below, so that every field's error shows at once.
    domain: optionalText,
    metadataXml: optionalText,
    metadataUrl: optionalText,
    entityId: optionalText,
    entryPoint: optionalText,
    certificate: optionalText,
  })
  .transform((value, context) => {
    const fields: Record<string, z.ZodType<string>> = {
      ...SAML_SOURCE_FIELDS[value.source],
      domain: domainFieldSchema,
    };
    const checked = { ...value };
    for (const [name, schema] of Object.entries(fields)) {
      const result = schema.safeParse(value[name as keyof typeof value]);
      if (result.success) Object.assign(checked, { [name]: result.data });
      else
        for (const issue of result.error.issues)
          context.addIssue({ code: "custom", message: issue.message, path: [name] });
    }
    return checked;
  });
export type SamlConnectionInput = z.output<typeof samlConnectionSchema>;

/** `PATCH /api/organizations/{id}/security`'s SSO policy: members must sign in through the organization's IdP. */
export const requireSsoSchema = z.strictObject({
  requireSso: z.boolean({ error: "Say whether members must sign in with SSO" }),
});

/** An organization the signed-in person may join by their verified address's domain (docs/sso.md). */
export type JoinableOrganization = { id: string; name: string; slug: string; domain: string };

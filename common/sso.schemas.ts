import { z } from "zod";
import { emailSchema } from "./account.schemas";
import { URL_MAX_LENGTH } from "./account-limits";

// The forms of enterprise single sign-on: the sign-in page's "Continue with SSO" and an organization's connection
// setup. The server checks the same bodies with these schemas before handing them to better-auth's SSO plugin.

/** "Continue with SSO": the work e-mail whose domain names the organization's identity provider. */
export const ssoSignInSchema = z.object({ email: emailSchema });
export type SsoSignInInput = z.infer<typeof ssoSignInSchema>;

export const SSO_PROTOCOLS = ["oidc", "saml"] as const;
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

export const SSO_DOMAIN_MAX_LENGTH = 253;
/** A DNS name of at least two labels, lower-case letters, digits and inner dashes: `example.com`, `eu.example.org`. */
export const SSO_DOMAIN_PATTERN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
export const SSO_CLIENT_ID_MAX_LENGTH = 512;
export const SSO_CLIENT_SECRET_MAX_LENGTH = 1024;
/** IdP metadata and certificates are bounded like the plugin bounds metadata (100 KB). */
export const SAML_METADATA_MAX_LENGTH = 100 * 1024;
export const SAML_CERTIFICATE_MAX_LENGTH = 16 * 1024;

const atMost = (max: number) => `Use at most ${max} characters`;

/** The e-mail domain the connection signs in: people whose address ends in `@domain` are sent to it. */
export const ssoDomainSchema = z
  .string({ error: "Enter your company's e-mail domain" })
  .trim()
  .toLowerCase()
  .min(1, { error: "Enter your company's e-mail domain", abort: true })
  .max(SSO_DOMAIN_MAX_LENGTH, atMost(SSO_DOMAIN_MAX_LENGTH))
  .regex(SSO_DOMAIN_PATTERN, "Enter a domain such as example.com, without @ or https://");

const httpsUrl = (missing: string) =>
  z
    .string({ error: missing })
    .trim()
    .min(1, missing)
    .max(URL_MAX_LENGTH, atMost(URL_MAX_LENGTH))
    .pipe(z.url({ protocol: /^https?$/, error: "Enter a full address starting with https://" }));

/** The identity provider's values for an OIDC connection: its issuer (discovery runs from it) and our client. */
export const oidcConnectionSchema = z.object({
  domain: ssoDomainSchema,
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
  .min(1, "Paste the signing certificate")
  .max(SAML_CERTIFICATE_MAX_LENGTH, atMost(SAML_CERTIFICATE_MAX_LENGTH))
  .refine((pem) => /^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/.test(pem), {
    error: "Paste the certificate in PEM form, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----",
  });

const metadataXmlSchema = z
  .string()
  .trim()
  .min(1, "Paste or upload the identity provider's metadata")
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
    domain: ssoDomainSchema,
    metadataXml: optionalText,
    metadataUrl: optionalText,
    entityId: optionalText,
    entryPoint: optionalText,
    certificate: optionalText,
  })
  .transform((value, context) => {
    const fields: Record<string, z.ZodType<string>> = SAML_SOURCE_FIELDS[value.source];
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

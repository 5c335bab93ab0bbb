import { z } from "zod";
import {
  callbackUrlSchema,
  EMAIL_MAX_LENGTH,
  idSchema,
  textSchema,
  tokenSchema,
  URL_MAX_LENGTH,
} from "../../../common/account.schemas";
import { ssoDomainSchema, ssoProviderIdSchema } from "../../../common/sso.schemas";

export { organizationParamsSchema } from "../../../common/organization.schemas";

const atMost = (max: number) => `Use at most ${max} characters`;
const url = z
  .url({ protocol: /^https?$/, error: "Enter an absolute http(s) URL" })
  .max(URL_MAX_LENGTH, atMost(URL_MAX_LENGTH));
const LIST_MAX_LENGTH = 64;
const SAML_DOCUMENT_MAX_LENGTH = 100_000;
/** Metadata, certificates and keys (PEM or XML): bounded, their content is the plugin's to check. */
const document = z.string().max(SAML_DOCUMENT_MAX_LENGTH, atMost(SAML_DOCUMENT_MAX_LENGTH));
const certificates = z.union([document, z.array(document).max(8, "Send at most 8 certificates")]);
const scopes = z.array(idSchema).max(LIST_MAX_LENGTH, `Send at most ${LIST_MAX_LENGTH} scopes`);
const mappingFields = {
  email: idSchema,
  emailVerified: idSchema.optional(),
  name: idSchema,
  image: idSchema.optional(),
  extraFields: z.record(idSchema, idSchema).optional(),
};
const service = z.strictObject({ Binding: textSchema, Location: url });

const oidcConfig = z.strictObject({
  clientId: tokenSchema,
  clientSecret: tokenSchema.optional(),
  authorizationEndpoint: url.optional(),
  tokenEndpoint: url.optional(),
  userInfoEndpoint: url.optional(),
  tokenEndpointAuthentication: z
    .enum(["client_secret_post", "client_secret_basic", "private_key_jwt"], {
      error: "Use client_secret_basic, client_secret_post or private_key_jwt",
    })
    .optional(),
  privateKeyId: idSchema.optional(),
  privateKeyAlgorithm: idSchema.optional(),
  jwksEndpoint: url.optional(),
  discoveryEndpoint: url.optional(),
  skipDiscovery: z.boolean().optional(),
  scopes: scopes.optional(),
  pkce: z.boolean().optional(),
  overrideUserInfo: z.boolean().optional(),
  mapping: z.strictObject(mappingFields).optional(),
});

const idpMetadata = z.strictObject({
  metadata: document.optional(),
  /** The app's own field: the IdP metadata's URL, read at registration (sso.saml.ts checks it; the plugin gets XML). */
  metadataUrl: z.string().min(1).max(2_048, "Use at most 2048 characters").optional(),
  entityID: textSchema.optional(),
  cert: certificates.optional(),
  privateKey: document.optional(),
  privateKeyPass: textSchema.optional(),
  isAssertionEncrypted: z.boolean().optional(),
  encPrivateKey: document.optional(),
  encPrivateKeyPass: textSchema.optional(),
  singleSignOnService: z.array(service).max(8).optional(),
  singleLogoutService: z.array(service).max(8).optional(),
});

const samlConfig = z.strictObject({
  entryPoint: url,
  cert: certificates.optional(),
  audience: textSchema.optional(),
  callbackUrl: callbackUrlSchema.optional(),
  idpInitiatedCallbackUrl: callbackUrlSchema.optional(),
  idpMetadata: idpMetadata.optional(),
  spMetadata: z
    .strictObject({
      metadata: document.optional(),
      entityID: textSchema.optional(),
      binding: textSchema.optional(),
      privateKey: document.optional(),
      privateKeyPass: textSchema.optional(),
      isAssertionEncrypted: z.boolean().optional(),
      encPrivateKey: document.optional(),
      encPrivateKeyPass: textSchema.optional(),
    })
    .optional(),
  wantAssertionsSigned: z.boolean().optional(),
  authnRequestsSigned: z.boolean().optional(),
  signatureAlgorithm: textSchema.optional(),
  digestAlgorithm: textSchema.optional(),
  identifierFormat: textSchema.optional(),
  privateKey: document.optional(),
  mapping: z
    .strictObject({ ...mappingFields, firstName: idSchema.optional(), lastName: idSchema.optional() })
    .optional(),
});

const providerId = z.strictObject({ providerId: idSchema });
const samlMessage = z.looseObject({
  SAMLRequest: document.optional(),
  SAMLResponse: document.optional(),
  RelayState: tokenSchema.optional(),
  SigAlg: textSchema.optional(),
  Signature: tokenSchema.optional(),
});

/**
 * The body of every POST endpoint of @better-auth/sso, keyed by path (server/auth checks every request against these
 * before any plugin's hook runs). A provider serves one domain (the plugin's comma-separated list is not offered: a
 * domain is proven, and signs in, on its own), named by a provider id that fits a DNS label and a URL path.
 */
export const SSO_REQUEST_BODY_SCHEMAS: Record<string, z.ZodType> = {
  "/sso/register": z
    .strictObject({
      providerId: ssoProviderIdSchema,
      issuer: url,
      domain: ssoDomainSchema,
      organizationId: idSchema,
      oidcConfig: oidcConfig.optional(),
      samlConfig: samlConfig.optional(),
      overrideUserInfo: z.boolean().optional(),
    })
    .refine((body) => Boolean(body.oidcConfig) !== Boolean(body.samlConfig), {
      message: "Send either oidcConfig or samlConfig",
      path: ["oidcConfig"],
    }),
  "/sso/update-provider": z.strictObject({
    providerId: idSchema,
    issuer: url.optional(),
    domain: ssoDomainSchema.optional(),
    oidcConfig: oidcConfig.partial().optional(),
    samlConfig: samlConfig.partial().optional(),
  }),
  "/sso/delete-provider": providerId,
  "/sso/request-domain-verification": providerId,
  "/sso/verify-domain": providerId,
  "/sign-in/sso": z.strictObject({
    email: z.string().max(EMAIL_MAX_LENGTH, atMost(EMAIL_MAX_LENGTH)).optional(),
    organizationSlug: idSchema.optional(),
    providerId: idSchema.optional(),
    domain: z.string().max(253, atMost(253)).optional(),
    callbackURL: callbackUrlSchema,
    errorCallbackURL: callbackUrlSchema.optional(),
    newUserCallbackURL: callbackUrlSchema.optional(),
    scopes: scopes.optional(),
    loginHint: textSchema.optional(),
    additionalParams: z.record(idSchema, textSchema).optional(),
    requestSignUp: z.boolean().optional(),
    providerType: z.enum(["oidc", "saml"], { error: "Use oidc or saml" }).optional(),
  }),
  // The IdP posts its SAML messages here (HTTP-POST binding); which fields it adds is the IdP's choice.
  "/sso/saml2/sp/acs/:providerId": samlMessage,
  "/sso/saml2/sp/slo/:providerId": samlMessage,
  "/sso/saml2/logout/:providerId": z.strictObject({ callbackURL: callbackUrlSchema.optional() }),
};

/** A TXT record published on the development DNS server's page (/dev/dns). */
export const devDnsRecordSchema = z.object({
  name: z
    .string()
    .max(253, atMost(253))
    .transform((value) => value.trim().toLowerCase().replace(/\.$/, ""))
    .pipe(
      z.string().regex(/^[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9])?$/, "Enter a DNS name such as _atrium-sso-acme.example.com"),
    ),
  value: z.string().trim().min(1, "Enter the record's value").max(1000, atMost(1000)),
});

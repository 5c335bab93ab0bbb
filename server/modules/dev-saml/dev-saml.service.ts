import { randomUUID } from "node:crypto";
import { inflateRawSync } from "node:zlib";
import { hostileXmlReason, MAX_SAML_XML_BYTES, safeSamlXmlValidator } from "../../http/hostile-xml";
import { identityProviderWithoutLogout, SAML_POST_BINDING, SAML_REDIRECT_BINDING, samlify } from "../../http/samlify";
import type { Logger } from "../../logger";
import { PRESET_IDENTITIES, subjectOf } from "../dev-identity";
import { readOrCreateSigningMaterial } from "./dev-saml.repository";
import type { PendingRequest, SamlBinding, SamlIdentity } from "./dev-saml.schemas";

/** Where the development SAML IdP answers, under the app's own origin. */
export const DEV_SAML_IDP_PATH = "/dev/saml";

/** How long an assertion may be presented: a few minutes, as real IdPs issue them. */
export const ASSERTION_LIFETIME_SECONDS = 300;
/** How old an AuthnRequest may be when the login page is answered (the sso plugin keeps its ID for 5 minutes). */
const REQUEST_LIFETIME_MS = 10 * 60 * 1000;
/** A service provider's clock may be a little ahead of ours. */
const CLOCK_SKEW_MS = 60 * 1000;

const PERSISTENT_NAME_ID = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
const PASSWORD_PROTECTED_TRANSPORT = "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport";
const PROTOCOL_NAMESPACE = "urn:oasis:names:tc:SAML:2.0:protocol";
const ASSERTION_NAMESPACE = "urn:oasis:names:tc:SAML:2.0:assertion";
const SCHEMA_NAMESPACE = "http://www.w3.org/2001/XMLSchema";
const SCHEMA_INSTANCE_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";
const BASIC_ATTRIBUTE = "urn:oasis:names:tc:SAML:2.0:attrname-format:basic";

/** A service provider the IdP answers: its entity ID and the addresses it takes responses at (HTTP-POST). */
export type KnownServiceProvider = { entityId: string; assertionConsumerServiceUrls: string[] };

/**
 * Finds the service provider an AuthnRequest comes from, by the entity ID it names as Issuer and the ACS URL it
 * asks for; null when the IdP does not know it. The app answers from its SAML providers registered against this IdP
 * (`identityProvider`).
 */
export type ServiceProviderLookup = (request: {
  issuer: string;
  assertionConsumerServiceUrl?: string;
  identityProvider: { entityId: string; ssoUrl: string };
}) => Promise<KnownServiceProvider | null>;

/** An AuthnRequest the IdP accepted: whom to answer, where, and what to quote back. */
export type AcceptedRequest = PendingRequest & {
  id: string;
  serviceProvider: KnownServiceProvider;
  assertionConsumerServiceUrl: string;
};

/** Why an AuthnRequest is not answered: the page's status, title and explanation. */
export type RefusedRequest = { status: 400 | 403 | 410; title: string; detail: string };

export type DevSamlIdentityProvider = Awaited<ReturnType<typeof createDevSamlIdentityProvider>>;

/** The XML escape for text and attribute values. */
const xml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[char] as string,
  );

/** SAML's instants: UTC, whole seconds (some service providers refuse fractions). */
const instant = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

/** An IdP's signing identity: its entity ID, SSO service URL, key and certificate. */
export type SigningIdentity = { entityId: string; ssoUrl: string; privateKey: string; certificate: string };

/** What a signed SAML Response says; every field is the caller's, so tests can build the wrong ones too. */
export type ResponseInput = {
  /** The service provider's entity ID (the AudienceRestriction). */
  audience: string;
  /** The ACS URL: SubjectConfirmationData's Recipient. */
  recipient: string;
  /** The Response's Destination; the recipient unless said otherwise. */
  destination?: string;
  /** The AuthnRequest's ID; none for an IdP-initiated response. */
  inResponseTo?: string;
  nameId: string;
  attributes: Record<string, string>;
  issuedAt: Date;
  lifetimeSeconds: number;
};

/**
 * An IdP that signs SAML Responses for the HTTP-POST binding, as samlify builds them: the assertion signed, then the
 * whole response signed (RSA-SHA256, exclusive canonicalization). `sign` answers the response base64, as posted.
 */
export function createResponseSigner(identity: SigningIdentity) {
  const identityProvider = identityProviderWithoutLogout({
    entityID: identity.entityId,
    signingCert: identity.certificate,
    privateKey: identity.privateKey,
    nameIDFormat: [PERSISTENT_NAME_ID],
    singleSignOnService: [
      { Binding: SAML_REDIRECT_BINDING, Location: identity.ssoUrl },
      { Binding: SAML_POST_BINDING, Location: identity.ssoUrl },
    ],
    wantAuthnRequestsSigned: false,
  });

  async function sign(input: ResponseInput): Promise<string> {
    const responseId = `_${randomUUID()}`;
    const assertionId = `_${randomUUID()}`;
    const issued = instant(input.issuedAt);
    const expires = instant(new Date(input.issuedAt.getTime() + input.lifetimeSeconds * 1000));
    const inResponseTo = input.inResponseTo ? ` InResponseTo="${xml(input.inResponseTo)}"` : "";
    const attributes = Object.entries(input.attributes).map(
      ([name, value]) =>
        `<saml:Attribute Name="${xml(name)}" NameFormat="${BASIC_ATTRIBUTE}">` +
        `<saml:AttributeValue xsi:type="xs:string">${xml(value)}</saml:AttributeValue></saml:Attribute>`,
    );
    const issuer = `<saml:Issuer>${xml(identity.entityId)}</saml:Issuer>`;
    const context = [
      `<samlp:Response xmlns:samlp="${PROTOCOL_NAMESPACE}" xmlns:saml="${ASSERTION_NAMESPACE}" ID="${responseId}"`,
      ` Version="2.0" IssueInstant="${issued}"`,
      ` Destination="${xml(input.destination ?? input.recipient)}"${inResponseTo}>`,
      issuer,
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>`,
      `<saml:Assertion xmlns:xsi="${SCHEMA_INSTANCE_NAMESPACE}" xmlns:xs="${SCHEMA_NAMESPACE}"`,
      ` ID="${assertionId}" Version="2.0" IssueInstant="${issued}">`,
      issuer,
      `<saml:Subject><saml:NameID Format="${PERSISTENT_NAME_ID}">${xml(input.nameId)}</saml:NameID>`,
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">`,
      `<saml:SubjectConfirmationData NotOnOrAfter="${expires}" Recipient="${xml(input.recipient)}"${inResponseTo}/>`,
      `</saml:SubjectConfirmation></saml:Subject>`,
      `<saml:Conditions NotBefore="${issued}" NotOnOrAfter="${expires}"><saml:AudienceRestriction>`,
      `<saml:Audience>${xml(input.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`,
      `<saml:AuthnStatement AuthnInstant="${issued}" SessionIndex="${assertionId}"><saml:AuthnContext>`,
      `<saml:AuthnContextClassRef>${PASSWORD_PROTECTED_TRANSPORT}</saml:AuthnContextClassRef>`,
      `</saml:AuthnContext></saml:AuthnStatement>`,
      `<saml:AttributeStatement>${attributes.join("")}</saml:AttributeStatement>`,
      `</saml:Assertion></samlp:Response>`,
    ].join("");
    // The service provider as the IdP sees it: it always wants the assertion and the message signed.
    const sp = samlify.ServiceProvider({
      entityID: input.audience,
      assertionConsumerService: [{ Binding: SAML_POST_BINDING, Location: input.recipient }],
      wantAssertionsSigned: true,
      wantMessageSigned: true,
    });
    const { context: signed } = await identityProvider.createLoginResponse(
      sp,
      { extract: { request: { id: input.inResponseTo ?? "" } } },
      "post",
      {},
      { customTagReplacement: () => ({ id: responseId, context }) },
    );
    return signed;
  }

  return { identityProvider, sign };
}

/**
 * The development SAML identity provider: signs whoever the developer picks or types in to a service provider the
 * app knows, with a key and certificate kept in the data folder. It keeps no state of its own: the login page
 * carries the AuthnRequest in its forms and it is checked again when a form comes back, so any process of a
 * cluster answers any step.
 */
export async function createDevSamlIdentityProvider(options: {
  baseUrl: string;
  dataDir: string;
  findServiceProvider: ServiceProviderLookup;
  /** The app's sign-in page, where the IdP's dead ends lead back to. */
  signInUrl: string;
  logger: Logger;
  isProduction: boolean;
  now?: () => Date;
}) {
  const now = options.now ?? (() => new Date());
  if (options.isProduction) {
    options.logger.warn(
      "the development SAML IdP is on: whoever reaches it signs in to any SAML provider that trusts its certificate",
      { path: DEV_SAML_IDP_PATH },
    );
  }
  // samlify parses through one module-wide validator; ours refuses document types (entity expansion) outright.
  samlify.setSchemaValidator(safeSamlXmlValidator);
  const base = `${options.baseUrl}${DEV_SAML_IDP_PATH}`;
  const entityId = base;
  const ssoUrl = `${base}/sso`;
  const signing = await readOrCreateSigningMaterial(options.dataDir, "Atrium development SAML IdP");
  const signer = createResponseSigner({ entityId, ssoUrl, ...signing });
  const idp = signer.identityProvider;
  const metadata = idp.getMetadata();
  const refused = (status: RefusedRequest["status"], title: string, detail: string): RefusedRequest => ({
    status,
    title,
    detail,
  });

  /**
   * The AuthnRequest's XML, decoded as its binding encodes it (HTTP-Redirect deflates it); null when it is not one.
   * Inflating stops at the XML checks' size limit, so a small "deflate bomb" cannot fill the memory.
   */
  function decode(binding: SamlBinding, message: string): string | null {
    try {
      const bytes = Buffer.from(message.replace(/\s+/g, ""), "base64");
      const xml = binding === "redirect" ? inflateRawSync(bytes, { maxOutputLength: MAX_SAML_XML_BYTES }) : bytes;
      const text = xml.toString("utf8");
      return text.includes("<") ? text : null;
    } catch {
      return null;
    }
  }

  /**
   * Checks an AuthnRequest: well-formed and safe XML, from a service provider the app knows, asking for one of its
   * ACS URLs, recent. Answers what to sign in to, or why not.
   */
  async function readRequest(pending: PendingRequest): Promise<AcceptedRequest | RefusedRequest> {
    const decoded = decode(pending.binding, pending.SAMLRequest);
    if (decoded === null)
      return refused(400, "This is not a SAML request", "SAMLRequest is not an encoded XML message.");
    const hostile = hostileXmlReason(decoded);
    if (hostile) return refused(400, "This SAML request is refused", `The AuthnRequest is refused: ${hostile}.`);
    let extract: Record<string, unknown>;
    try {
      const placeholder = samlify.ServiceProvider({ entityID: "urn:atrium:dev-saml:unknown" });
      const request =
        pending.binding === "redirect"
          ? { query: { SAMLRequest: pending.SAMLRequest, RelayState: pending.RelayState } }
          : { body: { SAMLRequest: pending.SAMLRequest, RelayState: pending.RelayState } };
      // Unsigned requests are accepted (wantAuthnRequestsSigned is false): what is checked is whom they name.
      ({ extract } = await idp.parseLoginRequest(placeholder, pending.binding, request));
    } catch {
      return refused(400, "This SAML request is refused", "The AuthnRequest could not be read.");
    }
    const request = (extract.request ?? {}) as Record<string, string | undefined>;
    const issuer = typeof extract.issuer === "string" ? extract.issuer.trim() : "";
    if (!request.id || !issuer) {
      return refused(400, "This SAML request is refused", "The AuthnRequest names no ID or no Issuer.");
    }
    if (request.destination && request.destination !== ssoUrl) {
      return refused(400, "This SAML request is refused", `The AuthnRequest is addressed to ${request.destination}.`);
    }
    const issuedAt = Date.parse(request.issueInstant ?? "");
    const age = now().getTime() - issuedAt;
    if (Number.isNaN(issuedAt) || age < -CLOCK_SKEW_MS) {
      return refused(400, "This SAML request is refused", "The AuthnRequest has no valid IssueInstant.");
    }
    if (age > REQUEST_LIFETIME_MS) {
      return refused(
        410,
        "This sign-in is no longer in progress",
        "The request is more than 10 minutes old. Start again from Atrium.",
      );
    }
    const requestedAcs = request.assertionConsumerServiceUrl || undefined;
    const serviceProvider = await options.findServiceProvider({
      issuer,
      assertionConsumerServiceUrl: requestedAcs,
      identityProvider: { entityId, ssoUrl },
    });
    if (!serviceProvider || serviceProvider.entityId !== issuer) {
      return refused(403, "Unknown service provider", `No SAML service provider ${issuer} is registered in Atrium.`);
    }
    const acs = requestedAcs ?? serviceProvider.assertionConsumerServiceUrls[0];
    if (!acs || !serviceProvider.assertionConsumerServiceUrls.includes(acs)) {
      return refused(
        403,
        "Unknown assertion consumer service",
        `${issuer} does not take responses at ${requestedAcs ?? "any address"}.`,
      );
    }
    return { ...pending, id: request.id, serviceProvider, assertionConsumerServiceUrl: acs };
  }

  return {
    entityId,
    ssoUrl,
    metadataUrl: `${base}/metadata`,
    signInUrl: options.signInUrl,
    certificate: signing.certificate,
    /** The IdP's SAML metadata: entity ID, SSO service (HTTP-Redirect and HTTP-POST), signing certificate. */
    metadata,
    /** The people the login page lists (the development OIDC provider's). */
    identities: PRESET_IDENTITIES.map((identity) => ({ ...identity })) as SamlIdentity[],
    readRequest,

    /** The signed response to `request` for `identity`, and where the browser posts it. */
    async respond(request: AcceptedRequest, identity: SamlIdentity) {
      const email = identity.email.trim().toLowerCase();
      const SAMLResponse = await signer.sign({
        audience: request.serviceProvider.entityId,
        recipient: request.assertionConsumerServiceUrl,
        inResponseTo: request.id,
        // The same subject for an address as the development OIDC provider's.
        nameId: subjectOf(email),
        attributes: {
          email,
          displayName: identity.name,
          emailVerified: String(identity.emailVerified),
        },
        issuedAt: now(),
        lifetimeSeconds: ASSERTION_LIFETIME_SECONDS,
      });
      return { action: request.assertionConsumerServiceUrl, SAMLResponse, RelayState: request.RelayState };
    },
  };
}

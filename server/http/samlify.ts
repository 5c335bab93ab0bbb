import { createRequire } from "node:module";

/**
 * samlify, loaded through `require` and typed here with the few calls the app makes. Its own type declarations pull
 * in the DOM library (through its XML parser's), which the server's program must not have
 * (scripts/typecheck-probes/node-globals.ts): `document` and `window` would type-check in server code.
 */

type Endpoint = { Binding: string; Location: string };

export type SamlEntityMetadata = {
  getEntityID(): string;
  getAssertionConsumerService(binding: string): string | string[];
};

export type SamlFlowResult = { samlContent: string; extract: Record<string, unknown> };

export type SamlServiceProvider = {
  entityMeta: SamlEntityMetadata;
  getMetadata(): string;
  createLoginRequest(idp: SamlIdentityProvider, binding: "redirect" | "post"): { id: string; context: string };
  parseLoginResponse(
    idp: SamlIdentityProvider,
    binding: "post",
    request: { body: Record<string, string | undefined> },
  ): Promise<SamlFlowResult>;
};

export type SamlIdentityProvider = {
  entityMeta: SamlEntityMetadata;
  getMetadata(): string;
  parseLoginRequest(
    sp: SamlServiceProvider,
    binding: "redirect" | "post",
    request: { query?: Record<string, string | undefined>; body?: Record<string, string | undefined> },
  ): Promise<SamlFlowResult>;
  createLoginResponse(
    sp: SamlServiceProvider,
    requestInfo: { extract: { request: { id: string } } },
    binding: "post",
    user: Record<string, string>,
    options: { customTagReplacement: (template: string) => { id: string; context: string } },
  ): Promise<{ id: string; context: string }>;
};

export type Samlify = {
  IdentityProvider(settings: {
    metadata?: string;
    entityID?: string;
    signingCert?: string | string[];
    privateKey?: string;
    nameIDFormat?: string[];
    singleSignOnService?: Endpoint[];
    wantAuthnRequestsSigned?: boolean;
  }): SamlIdentityProvider;
  ServiceProvider(settings: {
    metadata?: string;
    entityID?: string;
    assertionConsumerService?: Endpoint[];
    wantAssertionsSigned?: boolean;
    wantMessageSigned?: boolean;
    authnRequestsSigned?: boolean;
    allowCreate?: boolean;
    relayState?: string;
  }): SamlServiceProvider;
  setSchemaValidator(validator: { validate(xml: string): Promise<unknown> }): void;
};

export const samlify = createRequire(import.meta.url)("samlify") as Samlify;

export const SAML_POST_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";
export const SAML_REDIRECT_BINDING = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

/**
 * An identity provider without a single logout service, as the development IdP is (it keeps no session to end):
 * samlify warns about it on the console at construction, a stray line on every start, which is left out here.
 */
export function identityProviderWithoutLogout(
  settings: Parameters<Samlify["IdentityProvider"]>[0],
): SamlIdentityProvider {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).includes("missing endpoint of SingleLogoutService")) warn(...args);
  };
  try {
    return samlify.IdentityProvider(settings);
  } finally {
    console.warn = warn;
  }
}

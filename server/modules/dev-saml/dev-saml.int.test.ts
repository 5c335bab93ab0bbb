import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { samlify, SAML_POST_BINDING, SAML_REDIRECT_BINDING, type SamlServiceProvider } from "../../http/samlify";
import { createClient, type TestClient } from "../../test/request";
import { form, hiddenFields } from "../../test/sso";
import { createTestApp, type TestApp } from "../../test/test-database";
import { subjectOf } from "../dev-identity";
import type { KnownServiceProvider, ServiceProviderLookup } from "./index";

/** The app's base URL in tests that do not listen. */
const BASE_URL = "http://localhost:3000";
const SP_ENTITY_ID = `${BASE_URL}/api/auth/sso/saml2/sp/metadata?providerId=acme`;
const ACS_URL = `${BASE_URL}/api/auth/sso/saml2/sp/acs/acme`;
const KNOWN: KnownServiceProvider = { entityId: SP_ENTITY_ID, assertionConsumerServiceUrls: [ACS_URL] };

/** A service provider as the sso plugin builds one: HTTP-POST ACS, signed assertions wanted. */
function serviceProvider(entityId = SP_ENTITY_ID, acs = ACS_URL): SamlServiceProvider {
  return samlify.ServiceProvider({
    entityID: entityId,
    assertionConsumerService: [{ Binding: SAML_POST_BINDING, Location: acs }],
    wantAssertionsSigned: true,
  });
}

/** An AuthnRequest's XML as a service provider writes it, for the requests samlify would not build. */
function authnRequestXml(input: { id: string; issuer: string; issueInstant: string; prolog?: string }) {
  return [
    input.prolog ?? "",
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"`,
    ` xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${input.id}" Version="2.0"`,
    ` IssueInstant="${input.issueInstant}" Destination="${BASE_URL}/dev/saml/sso"`,
    ` AssertionConsumerServiceURL="${ACS_URL}" ProtocolBinding="${SAML_POST_BINDING}">`,
    `<saml:Issuer>${input.issuer}</saml:Issuer></samlp:AuthnRequest>`,
  ].join("");
}
/** Ten levels of ten references each: a billion "lol"s once expanded. */
const billionLaughs = [
  `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">`,
  ...Array.from({ length: 9 }, (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`),
  "]>",
].join("");
const redirectQuery = (xml: string) =>
  new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.from(xml)).toString("base64"), RelayState: "state-1" });

const postForm = (client: TestClient, pathname: string, fields: Record<string, string>) =>
  client.request(pathname, { method: "POST", ...form(fields) });

describe("development SAML IdP", () => {
  let target: TestApp;
  let client: TestClient;
  let idpFromMetadata: ReturnType<typeof samlify.IdentityProvider>;
  const lookups: Array<Parameters<ServiceProviderLookup>[0]> = [];

  beforeAll(async () => {
    target = await createTestApp({
      env: { DEV_SAML_IDP: "true" },
      samlServiceProviders: async (request) => {
        lookups.push(request);
        return request.issuer === SP_ENTITY_ID ? KNOWN : null;
      },
    });
    client = createClient(target);
    const metadata = await client.get("/dev/saml/metadata");
    idpFromMetadata = samlify.IdentityProvider({ metadata: String(metadata.data) });
  });
  afterAll(() => target.close());

  /** Starts a sign-in as the sso plugin does (HTTP-Redirect) and answers the login page and the request's ID. */
  async function openLoginPage(sp = serviceProvider()) {
    const request = sp.createLoginRequest(idpFromMetadata, "redirect");
    const url = new URL(request.context);
    url.searchParams.set("RelayState", "relay-state-1");
    const page = await client.get(`${url.pathname}${url.search}`);
    return { page, requestId: request.id };
  }

  it("serves its metadata: entity ID, SSO service (HTTP-Redirect, HTTP-POST), signing certificate", async () => {
    const response = await client.get("/dev/saml/metadata");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/samlmetadata+xml; charset=utf-8");
    expect(String(response.data)).toContain(`entityID="${BASE_URL}/dev/saml"`);
    expect(String(response.data)).toContain(
      `<SingleSignOnService Binding="${SAML_REDIRECT_BINDING}" Location="${BASE_URL}/dev/saml/sso"`,
    );
    expect(String(response.data)).toContain(
      `<SingleSignOnService Binding="${SAML_POST_BINDING}" Location="${BASE_URL}/dev/saml/sso"`,
    );
    const published = /<(?:ds:)?X509Certificate>([^<]+)<\/(?:ds:)?X509Certificate>/.exec(String(response.data))?.[1];
    const kept = readFileSync(path.join(target.config.dataDir, "dev-saml-idp.pem"), "utf8");
    const certificate = /-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.exec(kept)![0];
    expect(new X509Certificate(Buffer.from(published!, "base64")).fingerprint256).toBe(
      new X509Certificate(certificate).fingerprint256,
    );
    expect(new X509Certificate(certificate).subject).toBe("CN=Atrium development SAML IdP");
  });

  it("keeps its key and certificate in the data folder (owner only) and reuses them on the next start", async () => {
    const file = path.join(target.config.dataDir, "dev-saml-idp.pem");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const before = readFileSync(file, "utf8");
    const again = await createTestApp({ env: { DEV_SAML_IDP: "true" }, database: target.database });
    try {
      expect(readFileSync(file, "utf8")).toBe(before);
      expect(again.services.devSaml?.certificate).toBe(target.services.devSaml?.certificate);
      expect(String((await createClient(again).get("/dev/saml/metadata")).data)).toBe(
        String((await client.get("/dev/saml/metadata")).data),
      );
    } finally {
      await again.close();
    }
  });

  it("answers a known service provider's AuthnRequest with the login page listing the test identities", async () => {
    const { page } = await openLoginPage();
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(String(page.data)).toContain(`SAML service provider: ${SP_ENTITY_ID.replace(/&/g, "&amp;")}`);
    for (const email of ["ada@example.com", "grace@example.com", "alan@example.com"]) {
      expect(String(page.data)).toContain(`name="identity" value="${email}"`);
    }
    expect(String(page.data)).toContain('action="/dev/saml/sso/new-identity"');
    expect(hiddenFields(String(page.data))).toMatchObject({ binding: "redirect", RelayState: "relay-state-1" });
    expect(lookups.at(-1)).toEqual({
      issuer: SP_ENTITY_ID,
      assertionConsumerServiceUrl: ACS_URL,
      identityProvider: { entityId: `${BASE_URL}/dev/saml`, ssoUrl: `${BASE_URL}/dev/saml/sso` },
    });
  });

  it("answers an AuthnRequest sent by HTTP-POST the same way", async () => {
    const xml = authnRequestXml({ id: "_post-1", issuer: SP_ENTITY_ID, issueInstant: new Date().toISOString() });
    const page = await postForm(client, "/dev/saml/sso", { SAMLRequest: Buffer.from(xml).toString("base64") });
    expect(page.status).toBe(200);
    expect(hiddenFields(String(page.data))).toMatchObject({ binding: "post" });
    expect(String(page.data)).toContain('name="identity" value="ada@example.com"');
  });

  it("signs a response samlify accepts as SP: signed assertion, audience, recipient, InResponseTo, 5 min", async () => {
    const { page, requestId } = await openLoginPage();
    const before = Date.now();
    const answer = await postForm(client, "/dev/saml/sso/identity", {
      ...hiddenFields(String(page.data)),
      identity: "ada@example.com",
    });
    expect(answer.status).toBe(200);
    expect(String(answer.data)).toContain(`<form id="saml-response" method="post" action="${ACS_URL}">`);
    // No inline script: the app's CSP allows scripts from its own origin only.
    const script = /<script src="([^"]+)"><\/script>/.exec(String(answer.data))?.[1];
    expect(script).toMatch(/^\/dev\/saml\/post-[\w-]+\.js$/);
    expect(String(answer.data)).not.toMatch(/<script>|onload=/);
    expect(answer.headers.get("content-security-policy")).toContain("script-src 'self'");
    const scriptResponse = await client.get(script!);
    expect(scriptResponse.status).toBe(200);
    expect(scriptResponse.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(String(scriptResponse.data)).toBe('document.getElementById("saml-response").submit();\n');

    const { SAMLResponse, RelayState } = hiddenFields(String(answer.data));
    expect(RelayState).toBe("relay-state-1");
    const xml = Buffer.from(SAMLResponse!, "base64").toString();
    expect(xml).toMatch(/<saml:Assertion [^>]+>(?:<saml:Issuer>[^<]+<\/saml:Issuer>)<ds:Signature/);
    const parsed = await serviceProvider().parseLoginResponse(idpFromMetadata, "post", { body: { SAMLResponse } });
    const extract = parsed.extract as {
      nameID: string;
      audience: string;
      attributes: Record<string, string>;
      conditions: { notBefore: string; notOnOrAfter: string };
      response: { inResponseTo: string; destination: string };
      issuer: string;
    };
    expect(extract.nameID).toBe(subjectOf("ada@example.com"));
    expect(extract.issuer).toBe(`${BASE_URL}/dev/saml`);
    expect(extract.audience).toBe(SP_ENTITY_ID);
    expect(extract.attributes).toEqual({
      email: "ada@example.com",
      displayName: "Ada Lovelace",
      emailVerified: "true",
    });
    expect(extract.response.inResponseTo).toBe(requestId);
    expect(extract.response.destination).toBe(ACS_URL);
    expect(xml).toContain(`Recipient="${ACS_URL}" InResponseTo="${requestId}"`);
    const lifetime = Date.parse(extract.conditions.notOnOrAfter) - before;
    expect(lifetime).toBeGreaterThan(290_000);
    expect(lifetime).toBeLessThanOrEqual(301_000);
  });

  it("signs in an identity typed in on the login page; shows the form again with its errors if invalid", async () => {
    const { page } = await openLoginPage();
    const fields = hiddenFields(String(page.data));
    const invalid = await postForm(client, "/dev/saml/sso/new-identity", { ...fields, name: "", email: "nope" });
    expect(invalid.status).toBe(400);
    expect(String(invalid.data)).toContain('<p class="error" id="email-error">Enter a valid e-mail address</p>');
    expect(String(invalid.data)).toContain('<p class="error" id="name-error">Enter your name</p>');

    const answer = await postForm(client, "/dev/saml/sso/new-identity", {
      ...fields,
      name: "Mallory <Tester>",
      email: "Mallory@Acme.test",
    });
    expect(answer.status).toBe(200);
    const { SAMLResponse } = hiddenFields(String(answer.data));
    const parsed = await serviceProvider().parseLoginResponse(idpFromMetadata, "post", { body: { SAMLResponse } });
    expect(parsed.extract.attributes).toEqual({
      email: "mallory@acme.test",
      displayName: "Mallory <Tester>",
      emailVerified: "false",
    });
    expect(parsed.extract.nameID).toBe(subjectOf("mallory@acme.test"));
  });

  it("refuses an AuthnRequest from a service provider the app does not know (403), and a form for it", async () => {
    const { page } = await openLoginPage(serviceProvider("https://stranger.example/sp", ACS_URL));
    expect(page.status).toBe(403);
    expect(String(page.data)).toContain("<h1>Unknown service provider</h1>");
    expect(String(page.data)).toContain(
      "No SAML service provider https://stranger.example/sp is registered in Atrium.",
    );
    const xml = authnRequestXml({
      id: "_x",
      issuer: "https://stranger.example/sp",
      issueInstant: new Date().toISOString(),
    });
    const forged = await postForm(client, "/dev/saml/sso/identity", {
      binding: "post",
      SAMLRequest: Buffer.from(xml).toString("base64"),
      identity: "ada@example.com",
    });
    expect(forged.status).toBe(403);
    expect(String(forged.data)).not.toContain("SAMLResponse");
  });

  it("refuses an ACS URL the service provider does not list (403)", async () => {
    const { page } = await openLoginPage(serviceProvider(SP_ENTITY_ID, "https://evil.example/acs"));
    expect(page.status).toBe(403);
    expect(String(page.data)).toContain(
      `${SP_ENTITY_ID.replace(/&/g, "&amp;")} does not take responses at https://evil.example/acs.`,
    );
  });

  it("refuses a request over 10 minutes old (410), a document type (400), what is not SAML (400)", async () => {
    const old = authnRequestXml({
      id: "_old",
      issuer: SP_ENTITY_ID,
      issueInstant: new Date(Date.now() - 11 * 60_000).toISOString(),
    });
    const expired = await client.get(`/dev/saml/sso?${redirectQuery(old)}`);
    expect(expired.status).toBe(410);
    expect(String(expired.data)).toContain("<h1>This sign-in is no longer in progress</h1>");

    const laughs = authnRequestXml({
      id: "_lol",
      issuer: "&lol9;",
      issueInstant: new Date().toISOString(),
      prolog: billionLaughs,
    });
    const entities = await client.get(`/dev/saml/sso?${redirectQuery(laughs)}`);
    expect(entities.status).toBe(400);
    expect(String(entities.data)).toContain("The AuthnRequest is refused: it declares a document type or entities.");

    const missing = await client.get("/dev/saml/sso");
    expect(missing.status).toBe(400);
    expect(String(missing.data)).toContain("SAMLRequest is required");
    // 300 KB of spaces deflate to a few hundred bytes: inflating stops at 256 KB.
    const bomb = deflateRawSync(Buffer.from(`<a>${" ".repeat(300 * 1024)}</a>`)).toString("base64");
    const inflated = await client.get(`/dev/saml/sso?${new URLSearchParams({ SAMLRequest: bomb })}`);
    expect(inflated.status).toBe(400);
    expect(String(inflated.data)).toContain("SAMLRequest is not an encoded XML message.");
    const garbage = await client.get("/dev/saml/sso?SAMLRequest=bm90IHhtbA");
    expect(garbage.status).toBe(400);
    expect(String(garbage.data)).toContain("SAMLRequest is not an encoded XML message.");
  });

  it("refuses a login form posted from another site (the app's origin check)", async () => {
    const { page } = await openLoginPage();
    const response = await client.request("/dev/saml/sso/identity", {
      method: "POST",
      body: new URLSearchParams({ ...hiddenFields(String(page.data)), identity: "ada@example.com" }).toString(),
      contentType: "application/x-www-form-urlencoded",
      origin: "https://evil.example",
    });
    expect(response.status).toBe(403);
  });
});

describe("development SAML IdP switch", () => {
  // Development mode keeps generated secrets in the data folder: a folder of the test's own.
  const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-saml-switch-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const production = {
    NODE_ENV: "production",
    AUTH_SECRET: "x".repeat(32),
    SMTP_URL: "smtp://localhost:25",
    DATA_DIR: dataDir,
    DATABASE_URL: "postgres://localhost/atrium",
  };

  it("is off in production unless DEV_SAML_IDP=true, and on elsewhere unless DEV_SAML_IDP=false", () => {
    expect(loadConfig(production).devSamlIdp).toBe(false);
    expect(loadConfig({ ...production, DEV_SAML_IDP: "true" }).devSamlIdp).toBe(true);
    expect(loadConfig({ ...production, NODE_ENV: "development", AUTH_SECRET: "y".repeat(32) }).devSamlIdp).toBe(true);
    expect(loadConfig({ ...production, NODE_ENV: "development", DEV_SAML_IDP: "false" }).devSamlIdp).toBe(false);
  });

  it("serves nothing at /dev/saml when it is off", async () => {
    const target = await createTestApp({ env: { DEV_SAML_IDP: "false" } });
    try {
      expect(target.services.devSaml).toBeUndefined();
      const response = await createClient(target).get("/dev/saml/metadata");
      expect(response.status).toBe(404);
    } finally {
      await target.close();
    }
  });
});

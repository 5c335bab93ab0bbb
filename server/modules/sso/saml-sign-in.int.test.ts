import { readFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerifiedUser, createOrganizationWithOwner, type TestUser } from "../../test/factories";
import { recordingLogger, type LogRecord } from "../../test/recording-logger";
import { createClient, type TestClient, type TestResponse } from "../../test/request";
import { form, hiddenFields, startTestDns, verifyProviderDomain, type TestDns } from "../../test/sso";
import { createTestApp, type TestApp } from "../../test/test-database";
import { createResponseSigner, readOrCreateSigningMaterial, SIGNING_FILE_NAME, type ResponseInput } from "../dev-saml";

/**
 * A whole SAML sign-in over real HTTP: an owner registers a SAML provider against the development SAML IdP (/dev/saml)
 * by its metadata URL, proves the domain, and a new person signs in through the IdP's login page, ending with a
 * session and a membership. Then every way a SAML response must be refused: each sends the browser that posted it to
 * the sign-in error page (303) with a code the page words, logs its reason, and makes no session.
 */

const PROVIDER_ID = "acme-saml";
const DOMAIN = "acme.test";

describe.each([false, true])("SAML sign-in through the development IdP (samlify as IdP)", (isSecondRun) => {
  // One app for the flow and the refusals; the second run registers the provider by entry point and certificate.
  const via = isSecondRun ? "entry point and certificate" : "metadata URL";
  let dns: TestDns;
  let target: TestApp;
  let base: string;
  let owner: TestUser;
  let organizationId: string;
  let signer: ReturnType<typeof createResponseSigner>;
  let otherKeyDir: string;
  const logs: LogRecord[] = [];

  const sessionCount = async () =>
    Number(
      (
        await target.db
          .selectFrom("session")
          .select((eb) => eb.fn.countAll().as("count"))
          .executeTakeFirstOrThrow()
      ).count,
    );

  beforeAll(async () => {
    dns = await startTestDns();
    target = await createTestApp({
      listen: true,
      logger: recordingLogger(logs),
      env: { DEV_SAML_IDP: "true", DNS_SERVERS: dns.address },
    });
    base = target.config.baseUrl;
    owner = await createVerifiedUser(target, { email: `owner-${isSecondRun ? 2 : 1}@acme.test` });
    organizationId = (await createOrganizationWithOwner(owner, "Acme")).id;
    const material = await readOrCreateSigningMaterial(target.config.dataDir, "unused");
    signer = createResponseSigner({ entityId: `${base}/dev/saml`, ssoUrl: `${base}/dev/saml/sso`, ...material });
    otherKeyDir = mkdtempSync(path.join(tmpdir(), "atrium-other-idp-"));
  });
  afterAll(async () => {
    rmSync(otherKeyDir, { recursive: true, force: true });
    await target?.close();
    await dns?.close();
  });

  const acsPath = `/api/auth/sso/saml2/sp/acs/${PROVIDER_ID}`;
  const spEntityId = () => `${base}/api/auth/sso/saml2/sp/metadata?providerId=${PROVIDER_ID}`;

  it(`lets an owner register a SAML provider by its ${via} and prove its domain`, async () => {
    const samlConfig = isSecondRun
      ? {
          entryPoint: `${base}/dev/saml/sso`,
          cert: target.services.devSaml!.certificate,
          idpMetadata: { entityID: `${base}/dev/saml` },
          wantAssertionsSigned: true,
        }
      : {
          entryPoint: `${base}/dev/saml/sso`,
          idpMetadata: { metadataUrl: `${base}/dev/saml/metadata` },
          wantAssertionsSigned: true,
        };
    const registered = await owner.client.post("/api/auth/sso/register", {
      providerId: PROVIDER_ID,
      issuer: `${base}/dev/saml`,
      domain: DOMAIN,
      organizationId,
      samlConfig,
    });
    expect(registered.status).toBe(200);
    expect(registered.data).toMatchObject({ providerId: PROVIDER_ID, domain: DOMAIN, organizationId });

    const metadata = await owner.client.get(`/api/auth/sso/saml2/sp/metadata?providerId=${PROVIDER_ID}`);
    expect(metadata.status).toBe(200);
    expect(String(metadata.data)).toContain(`entityID="${spEntityId().replace(/&/g, "&amp;")}"`);
    expect(String(metadata.data)).toContain(`Location="${base}${acsPath}"`);
    expect(String(metadata.data)).toContain('WantAssertionsSigned="true"');

    const verified = await verifyProviderDomain(owner.client, dns, PROVIDER_ID);
    expect(verified.status).toBe(200);
    expect(verified.data).toEqual({ providerId: PROVIDER_ID, domain: DOMAIN, domainVerified: true });
  });

  /**
   * Starts a sign-in as the sign-in page does (or as `start` says: the settings page's test sign-in): answers the
   * IdP's URL, the AuthnRequest's ID and the RelayState.
   */
  async function startSignIn(client: TestClient, start: object = { email: `someone@${DOMAIN}`, callbackURL: "/" }) {
    const started = await client.post("/api/auth/sign-in/sso", start);
    expect(started.status).toBe(200);
    const url = new URL((started.data as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe(`${base}/dev/saml/sso`);
    const request = inflateRawSync(Buffer.from(url.searchParams.get("SAMLRequest")!, "base64")).toString();
    const requestId = /ID="([^"]+)"/.exec(request)![1]!;
    return { url, requestId, relayState: url.searchParams.get("RelayState")! };
  }

  /** Posts a SAML response to the ACS as the IdP's page does (from the IdP's origin). */
  const postToAcs = (client: TestClient, fields: { SAMLResponse: string; RelayState?: string }) =>
    client.request(acsPath, {
      method: "POST",
      ...form(Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as never),
      overHttp: true,
    });

  /** Signs in at the IdP's login page as a typed-in identity; answers the post page's fields. */
  async function throughLoginPage(client: TestClient, identity: { name: string; email: string }) {
    const { url, requestId, relayState } = await startSignIn(client);
    const page = await client.get(url.toString(), { overHttp: true });
    expect(page.status).toBe(200);
    expect(String(page.data)).toContain(`SAML service provider: ${spEntityId().replace(/&/g, "&amp;")}`);
    const answer = await client.request("/dev/saml/sso/new-identity", {
      method: "POST",
      ...form({ ...hiddenFields(String(page.data)), ...identity, emailVerified: "on" }),
      overHttp: true,
    });
    expect(answer.status).toBe(200);
    expect(String(answer.data)).toContain(`action="${base}${acsPath}"`);
    const fields = hiddenFields(String(answer.data));
    expect(fields.RelayState).toBe(relayState);
    return { requestId, relayState, SAMLResponse: fields.SAMLResponse! };
  }

  it("signs a new person in over HTTP through the IdP's login page, with a session and a membership", async () => {
    const client = createClient(target);
    const { SAMLResponse, RelayState } = await throughLoginPage(client, {
      name: "Ada Acme",
      email: `ada@${DOMAIN}`,
    }).then((fields) => ({ SAMLResponse: fields.SAMLResponse, RelayState: fields.relayState }));
    const accepted = await postToAcs(client, { SAMLResponse, RelayState });
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe("/");
    const session = await client.get("/api/auth/get-session");
    expect(session.status).toBe(200);
    expect((session.data as { user: { email: string; name: string; emailVerified: boolean } }).user).toMatchObject({
      email: `ada@${DOMAIN}`,
      name: "Ada Acme",
      emailVerified: true,
    });
    const organizations = await client.get("/api/auth/organization/list");
    expect((organizations.data as Array<{ id: string }>).map((organization) => organization.id)).toEqual([
      organizationId,
    ]);
    const member = await target.db
      .selectFrom("member")
      .innerJoin("user", "user.id", "member.userId")
      .select(["member.role", "member.organizationId"])
      .where("user.email", "=", `ada@${DOMAIN}`)
      .executeTakeFirstOrThrow();
    expect(member).toEqual({ role: "member", organizationId });
  });

  /** A response to a fresh AuthnRequest of `client`, signed by the dev IdP's key unless `sign` says otherwise. */
  async function craftedResponse(
    client: TestClient,
    overrides: Partial<ResponseInput> = {},
    sign: (input: ResponseInput) => Promise<string> = signer.sign,
    start?: object,
  ) {
    const { requestId, relayState } = await startSignIn(client, start);
    const SAMLResponse = await sign({
      audience: spEntityId(),
      recipient: `${base}${acsPath}`,
      inResponseTo: requestId,
      nameId: "dev-mallory",
      attributes: { email: `mallory@${DOMAIN}`, displayName: "Mallory", emailVerified: "true" },
      issuedAt: new Date(),
      lifetimeSeconds: 300,
      ...overrides,
    });
    return { SAMLResponse, RelayState: relayState };
  }

  /**
   * The refusal every bad response gets: a 303 to the sign-in error page with `code` (the browser posted it), its
   * reason in the log, no session cookie, no session row.
   */
  async function expectRefused(
    client: TestClient,
    response: TestResponse,
    reason: unknown,
    sessionsBefore: number,
    code = "SSO_SAML_RESPONSE_REFUSED",
  ) {
    expect(response.status).toBe(303);
    const errorPage = new URL(response.headers.get("location") ?? "");
    expect(`${errorPage.origin}${errorPage.pathname}`).toBe(`${base}/auth/error`);
    expect(errorPage.searchParams.get("error")).toBe(code);
    expect(response.headers.getSetCookie().some((cookie) => /session_token=[^;]/.test(cookie))).toBe(false);
    expect(await sessionCount()).toBe(sessionsBefore);
    expect((await client.get("/api/auth/get-session")).data).toBeNull();
    const logged = logs.filter((record) => record.message === "auth: SSO: a SAML response was refused").at(-1);
    expect(logged).toMatchObject({ level: "warn", fields: { details: [{ providerId: PROVIDER_ID, code, reason }] } });
  }

  it("refuses a tampered assertion (an attribute changed after signing)", async () => {
    const client = createClient(target);
    const sessions = await sessionCount();
    const { SAMLResponse, RelayState } = await craftedResponse(client);
    const tampered = Buffer.from(
      Buffer.from(SAMLResponse, "base64").toString().replace(`mallory@${DOMAIN}`, `owner-1@${DOMAIN}`),
    ).toString("base64");
    await expectRefused(
      client,
      await postToAcs(client, { SAMLResponse: tampered, RelayState }),
      "Invalid SAML response",
      sessions,
    );
  });

  it("refuses an expired assertion (NotOnOrAfter 15 minutes ago)", async () => {
    const client = createClient(target);
    const sessions = await sessionCount();
    const response = await craftedResponse(client, { issuedAt: new Date(Date.now() - 20 * 60_000) });
    await expectRefused(client, await postToAcs(client, response), "Invalid SAML response", sessions);
  });

  it("refuses the same response twice", async () => {
    const client = createClient(target);
    const response = await craftedResponse(client);
    const first = await postToAcs(client, response);
    expect(first.status).toBe(302);
    const sessions = await sessionCount();
    const again = createClient(target);
    await expectRefused(again, await postToAcs(again, response), "Unknown or expired request ID", sessions);
  });

  it("refuses a response signed with another key", async () => {
    const client = createClient(target);
    const sessions = await sessionCount();
    const other = await readOrCreateSigningMaterial(otherKeyDir, "Mallory's IdP");
    const forger = createResponseSigner({ entityId: `${base}/dev/saml`, ssoUrl: `${base}/dev/saml/sso`, ...other });
    const response = await craftedResponse(client, {}, forger.sign);
    await expectRefused(client, await postToAcs(client, response), "Invalid SAML response", sessions);
  });

  it("refuses an assertion for another service provider (audience)", async () => {
    const client = createClient(target);
    const sessions = await sessionCount();
    const response = await craftedResponse(client, { audience: "https://other-app.example/saml/metadata" });
    await expectRefused(
      client,
      await postToAcs(client, response),
      "SAML assertion audience does not match this Service Provider",
      sessions,
    );
  });

  it("refuses an assertion for another address (Recipient and Destination)", async () => {
    const client = createClient(target);
    const sessions = await sessionCount();
    const response = await craftedResponse(client, { recipient: `${base}/api/auth/sso/saml2/sp/acs/other-provider` });
    await expectRefused(
      client,
      await postToAcs(client, response),
      "SAML bearer SubjectConfirmationData Recipient does not match this Service Provider",
      sessions,
    );
  });

  it("refuses a response to a request it never made (unknown InResponseTo)", async () => {
    const client = createClient(target);
    const sessions = await sessionCount();
    const response = await craftedResponse(client, { inResponseTo: "_never-requested" });
    await expectRefused(client, await postToAcs(client, response), "Unknown or expired request ID", sessions);
  });

  it("refuses an XML entity expansion ('billion laughs') before any parser", async () => {
    const client = createClient(target);
    const sessions = await sessionCount();
    const { SAMLResponse, RelayState } = await craftedResponse(client);
    const entities = [
      `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">`,
      ...Array.from({ length: 9 }, (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`),
      "]>",
    ].join("");
    const laughs = Buffer.from(
      entities + Buffer.from(SAMLResponse, "base64").toString().replace("Mallory", "&lol9;"),
    ).toString("base64");
    const started = Date.now();
    await expectRefused(
      client,
      await postToAcs(client, { SAMLResponse: laughs, RelayState }),
      "it declares a document type or entities",
      sessions,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("sends the app's own refusals inside the sign-in to the error page with their code", async () => {
    const sessions = await sessionCount();
    const outsider = createClient(target);
    const elsewhere = await craftedResponse(outsider, {
      nameId: "dev-eve",
      attributes: { email: "eve@elsewhere.test", displayName: "Eve", emailVerified: "true" },
    });
    await expectRefused(
      outsider,
      await postToAcs(outsider, elsewhere),
      "This SSO connection signs in addresses on its organization's verified domain only",
      sessions,
      "SSO_EMAIL_OUTSIDE_DOMAIN",
    );

    // Every seat of the free plan (10) taken, by members and pending invitations: a newcomer is refused.
    const members = await target.db
      .selectFrom("member")
      .select("id")
      .where("organizationId", "=", organizationId)
      .execute();
    const invitations: string[] = [];
    for (let index = members.length; index < 10; index += 1) {
      const invited = await owner.client.post("/api/auth/organization/invite-member", {
        email: `invited${index}@elsewhere.test`,
        role: "member",
        organizationId,
      });
      expect(invited.status).toBe(200);
      invitations.push((invited.data as { id: string }).id);
    }
    try {
      const newcomer = createClient(target);
      const response = await craftedResponse(newcomer, {
        nameId: "dev-nora",
        attributes: { email: `nora@${DOMAIN}`, displayName: "Nora", emailVerified: "true" },
      });
      await expectRefused(
        newcomer,
        await postToAcs(newcomer, response),
        expect.stringContaining("seats"),
        sessions,
        "PLAN_LIMIT_REACHED",
      );
    } finally {
      for (const invitationId of invitations)
        await owner.client.post("/api/auth/organization/cancel-invitation", { invitationId });
    }
  });

  it("sends a response for a provider whose domain is no longer verified to the error page, saying so", async () => {
    const client = createClient(target);
    const sessions = await sessionCount();
    const response = await craftedResponse(client);
    const setVerified = (verified: boolean) =>
      target.db
        .updateTable("ssoProvider")
        .set({ domainVerified: Number(verified) })
        .where("providerId", "=", PROVIDER_ID)
        .execute();
    await setVerified(false);
    try {
      await expectRefused(
        client,
        await postToAcs(client, response),
        "Provider domain has not been verified",
        sessions,
        "SSO_DOMAIN_NOT_VERIFIED",
      );
    } finally {
      await setVerified(true);
    }
  });

  it("sends a refused test sign-in back to the SSO settings page it started from, with the code", async () => {
    // The settings page's Test sign-in (web/features/organizations/api/sso.ts): back to the page either way.
    const settings = `/organizations/${organizationId}/settings/sso`;
    const testStart = (page = settings, providerId = PROVIDER_ID) => {
      const back = `${page}?test=${encodeURIComponent(providerId)}`;
      return { providerId: PROVIDER_ID, callbackURL: back, errorCallbackURL: back };
    };
    const sessions = await sessionCount();
    const tampered = await craftedResponse(owner.client, {}, signer.sign, testStart());
    tampered.SAMLResponse = Buffer.from(
      Buffer.from(tampered.SAMLResponse, "base64").toString().replace(`mallory@${DOMAIN}`, `owner-1@${DOMAIN}`),
    ).toString("base64");
    const refused = await postToAcs(owner.client, tampered);
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe(
      `${base}${settings}?test=${PROVIDER_ID}&error=SSO_SAML_RESPONSE_REFUSED`,
    );
    expect(refused.headers.getSetCookie().some((cookie) => /session_token=[^;]/.test(cookie))).toBe(false);
    expect(await sessionCount()).toBe(sessions);
    const logged = logs.filter((record) => record.message === "auth: SSO: a SAML response was refused").at(-1);
    expect(logged).toMatchObject({
      fields: {
        details: [{ providerId: PROVIDER_ID, code: "SSO_SAML_RESPONSE_REFUSED", reason: "Invalid SAML response" }],
      },
    });

    // The app's own refusal inside the sign-in (an address outside the domain) goes back there too, with its code.
    const elsewhere = await craftedResponse(
      owner.client,
      { nameId: "dev-eve", attributes: { email: "eve@elsewhere.test", displayName: "Eve", emailVerified: "true" } },
      signer.sign,
      testStart(),
    );
    const outside = await postToAcs(owner.client, elsewhere);
    expect(outside.status).toBe(303);
    expect(outside.headers.get("location")).toBe(
      `${base}${settings}?test=${PROVIDER_ID}&error=SSO_EMAIL_OUTSIDE_DOMAIN`,
    );
    // So does a response refused before any parser, for its document type.
    const declared = await craftedResponse(owner.client, {}, signer.sign, testStart());
    const decoded = Buffer.from(declared.SAMLResponse, "base64").toString();
    declared.SAMLResponse = Buffer.from(`<!DOCTYPE r [<!ENTITY e "e">]>${decoded}`).toString("base64");
    const typed = await postToAcs(owner.client, declared);
    expect(typed.status).toBe(303);
    expect(typed.headers.get("location")).toBe(
      `${base}${settings}?test=${PROVIDER_ID}&error=SSO_SAML_RESPONSE_REFUSED`,
    );
    expect(await sessionCount()).toBe(sessions);

    // Any other page, another organization's or another provider's test, is not that test: the error page.
    for (const start of [
      testStart("/organizations/another-organization/settings/sso"),
      testStart(settings, "another-provider"),
      { providerId: PROVIDER_ID, callbackURL: "/dashboard", errorCallbackURL: "/dashboard" },
    ]) {
      const client = createClient(target);
      const response = await craftedResponse(
        client,
        { issuedAt: new Date(Date.now() - 20 * 60_000) },
        signer.sign,
        start,
      );
      const answer = await postToAcs(client, response);
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toBe(`${base}/auth/error?error=SSO_SAML_RESPONSE_REFUSED`);
    }
  });

  it("is refused by the development IdP for a provider registered against another IdP (403)", async () => {
    const other = await owner.client.post("/api/auth/sso/register", {
      providerId: "elsewhere-saml",
      issuer: "https://idp.elsewhere.test",
      domain: "elsewhere.test",
      organizationId,
      samlConfig: {
        entryPoint: "https://idp.elsewhere.test/sso",
        cert: target.services.devSaml!.certificate,
        idpMetadata: { entityID: "https://idp.elsewhere.test" },
      },
    });
    expect(other.status).toBe(200);
    const acs = `${base}/api/auth/sso/saml2/sp/acs/elsewhere-saml`;
    const request = [
      `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"`,
      ` xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_elsewhere" Version="2.0"`,
      ` IssueInstant="${new Date().toISOString()}" AssertionConsumerServiceURL="${acs}">`,
      `<saml:Issuer>${base}/api/auth/sso/saml2/sp/metadata?providerId=elsewhere-saml</saml:Issuer>`,
      `</samlp:AuthnRequest>`,
    ].join("");
    const page = await owner.client.request("/dev/saml/sso", {
      method: "POST",
      ...form({ SAMLRequest: Buffer.from(request).toString("base64") }),
      overHttp: true,
    });
    expect(page.status).toBe(403);
    expect(String(page.data)).toContain(
      `No SAML service provider ${base}/api/auth/sso/saml2/sp/metadata?providerId=elsewhere-saml is registered`,
    );
  });

  it("keeps the IdP's key in the data folder it signs with", () => {
    const kept = readFileSync(path.join(target.config.dataDir, SIGNING_FILE_NAME), "utf8");
    expect(kept).toContain(target.services.devSaml!.certificate.trim());
  });
});

describe("SAML provider registration by metadata URL", () => {
  let target: TestApp;
  let owner: TestUser;
  let organizationId: string;

  beforeAll(async () => {
    target = await createTestApp({ env: { DEV_SAML_IDP: "false" } });
    owner = await createVerifiedUser(target, { email: "owner@initech.test" });
    organizationId = (await createOrganizationWithOwner(owner, "Initech")).id;
  });
  afterAll(() => target.close());

  const register = (metadataUrl: string) =>
    owner.client.post("/api/auth/sso/register", {
      providerId: "initech-saml",
      issuer: "https://idp.initech.test/saml",
      domain: "initech.test",
      organizationId,
      samlConfig: { entryPoint: "https://idp.initech.test/sso", idpMetadata: { metadataUrl } },
    });

  it.each([
    ["http://idp.initech.test/metadata", "the metadata URL must be https"],
    ["https://127.0.0.1/metadata", "127.0.0.1 is a private or local address"],
    ["https://[::1]/metadata", "[::1] is a private or local address"],
    ["https://10.1.2.3/metadata", "10.1.2.3 is a private or local address"],
    ["not a url", "the metadata URL is not a URL"],
  ])("refuses %s (400, nothing registered)", async (url, reason) => {
    const response = await register(url);
    expect(response.status).toBe(400);
    expect(response.data).toMatchObject({
      code: "SSO_SAML_METADATA_UNREADABLE",
      message: "The IdP metadata could not be read from that URL",
      details: { reason },
    });
    expect(await target.db.selectFrom("ssoProvider").select("id").execute()).toEqual([]);
  });
});

import { createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedInMigrations } from "../../db/migrate";
import { storedSsoSecrets } from "../../db/sso-secrets";
import { createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createClient } from "../../test/request";
import { form, hiddenFields, startTestDns, verifyProviderDomain, type TestDns } from "../../test/sso";
import { createTestApp, type TestApp } from "../../test/test-database";

/**
 * A SAML provider's private keys at rest (docs/decisions/0026): registered with the service provider's signing key
 * (a passphrase-protected PEM) and its decryption key, it keeps neither in the stored configuration nor shows them in
 * any answer, and signs its AuthnRequests with the key all the same, through the development SAML IdP over real HTTP.
 * A row stored before (its keys in plain) is converted by migration 0026 and signs in as before.
 */

const PROVIDER_ID = "keys-saml";
const DOMAIN = "keys.test";
const PASSPHRASE = "a passphrase of the signing key";
const SIGNING = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: PASSPHRASE },
});
const DECRYPTION = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
});
/** What must never be stored in plain nor answered: the keys' PEM bodies (a line of each) and the passphrase. */
const SECRETS = [SIGNING.privateKey.split("\n")[1]!, DECRYPTION.privateKey.split("\n")[1]!, PASSPHRASE];

describe("SAML private keys at rest", () => {
  let dns: TestDns;
  let app: TestApp;
  let base: string;
  let owner: TestUser;
  let organizationId: string;

  beforeAll(async () => {
    dns = await startTestDns();
    app = await createTestApp({ listen: true, env: { DEV_SAML_IDP: "true", DNS_SERVERS: dns.address } });
    base = app.config.baseUrl;
    owner = await createVerifiedUser(app, { email: `owner@${DOMAIN}` });
    organizationId = (await createOrganizationWithOwner(owner, "Keys")).id;
  });
  afterAll(async () => {
    await app?.close();
    await dns?.close();
  });

  const storedConfig = async () =>
    (
      await app.db
        .selectFrom("ssoProvider")
        .select("samlConfig")
        .where("providerId", "=", PROVIDER_ID)
        .executeTakeFirstOrThrow()
    ).samlConfig ?? "";

  const expectNoSecretIn = (text: string) => {
    for (const secret of SECRETS) expect(text).not.toContain(secret);
  };

  it("registers a provider with its keys, stores them encrypted and answers without them", async () => {
    const registered = await owner.client.post("/api/auth/sso/register", {
      providerId: PROVIDER_ID,
      issuer: `${base}/dev/saml`,
      domain: DOMAIN,
      organizationId,
      samlConfig: {
        // By entry point and certificate: the IdP's metadata would say it wants no signed AuthnRequests.
        entryPoint: `${base}/dev/saml/sso`,
        cert: app.services.devSaml!.certificate,
        idpMetadata: { entityID: `${base}/dev/saml` },
        wantAssertionsSigned: true,
        authnRequestsSigned: true,
        spMetadata: {
          privateKey: SIGNING.privateKey,
          privateKeyPass: PASSPHRASE,
          encPrivateKey: DECRYPTION.privateKey,
        },
      },
    });
    expect(registered.status).toBe(200);
    expectNoSecretIn(JSON.stringify(registered.data));
    expect((registered.data as { samlConfig: { spMetadata: unknown } }).samlConfig.spMetadata).toEqual({
      entityID: `${base}/api/auth/sso/saml2/sp/metadata?providerId=${PROVIDER_ID}`,
    });

    const stored = await storedConfig();
    expectNoSecretIn(stored);
    expect(storedSsoSecrets("samlConfig", stored)).toEqual({
      plain: [],
      encrypted: ["spMetadata.privateKey", "spMetadata.privateKeyPass", "spMetadata.encPrivateKey"],
    });
    expect((JSON.parse(stored) as { spMetadata: Record<string, unknown> }).spMetadata).toEqual({
      entityID: `${base}/api/auth/sso/saml2/sp/metadata?providerId=${PROVIDER_ID}`,
      privateKeyEncrypted: expect.stringMatching(/^[\da-f]{64,}$/),
      privateKeyPassEncrypted: expect.stringMatching(/^[\da-f]{64,}$/),
      encPrivateKeyEncrypted: expect.stringMatching(/^[\da-f]{64,}$/),
    });

    // An update merges into the configuration the plugin reads (decrypted) and stores it encrypted again.
    const updated = await owner.client.post("/api/auth/sso/update-provider", {
      providerId: PROVIDER_ID,
      samlConfig: { identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" },
    });
    expect(updated.status).toBe(200);
    expectNoSecretIn(JSON.stringify(updated.data));
    expect(storedSsoSecrets("samlConfig", await storedConfig())).toEqual({
      plain: [],
      encrypted: ["spMetadata.privateKey", "spMetadata.privateKeyPass", "spMetadata.encPrivateKey"],
    });

    // Nothing that reads providers shows them: the plugin's list and provider, the settings page's list.
    for (const path of [
      "/api/auth/sso/providers",
      `/api/auth/sso/get-provider?providerId=${PROVIDER_ID}`,
      `/api/organizations/${organizationId}/sso`,
    ]) {
      const answer = await owner.client.get(path);
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.data)).toContain(PROVIDER_ID);
      expectNoSecretIn(JSON.stringify(answer.data));
    }
    const verified = await verifyProviderDomain(owner.client, dns, PROVIDER_ID);
    expect(verified.status).toBe(200);
  });

  /**
   * A sign-in through the IdP's login page as `email`: the AuthnRequest must carry a signature that the signing key's
   * public half verifies (the key and its passphrase were decrypted for it). Answers the ACS's answer.
   */
  async function signIn(email: string) {
    const client = createClient(app);
    const started = await client.post("/api/auth/sign-in/sso", { email, callbackURL: "/dashboard" });
    expect(started.status).toBe(200);
    const url = new URL((started.data as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe(`${base}/dev/saml/sso`);
    const [signed, signature] = url.search.slice(1).split("&Signature=");
    expect(url.searchParams.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    const publicKey = createPublicKey(SIGNING.publicKey);
    expect(
      verify("sha256", Buffer.from(signed!), publicKey, Buffer.from(decodeURIComponent(signature!), "base64")),
    ).toBe(true);

    const page = await client.get(url.toString(), { overHttp: true });
    expect(page.status).toBe(200);
    const answer = await client.request("/dev/saml/sso/new-identity", {
      method: "POST",
      ...form({ ...hiddenFields(String(page.data)), name: "Kim Keys", email, emailVerified: "on" }),
      overHttp: true,
    });
    expect(answer.status).toBe(200);
    const { SAMLResponse, RelayState } = hiddenFields(String(answer.data));
    const accepted = await client.request(`/api/auth/sso/saml2/sp/acs/${PROVIDER_ID}`, {
      method: "POST",
      ...form({ SAMLResponse: SAMLResponse!, RelayState: RelayState! }),
      overHttp: true,
    });
    const session = await client.get("/api/auth/get-session");
    return { accepted, session: session.data as { user: { email: string } } | null };
  }

  it("signs its AuthnRequests with the stored key and signs a person in through the development SAML IdP", async () => {
    const { accepted, session } = await signIn(`kim@${DOMAIN}`);
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe("/dashboard");
    expect(session?.user.email).toBe(`kim@${DOMAIN}`);
  });

  it("converts a row stored before (keys in plain) with migration 0026, which then signs in as before", async () => {
    const context = await app.services.auth.$context;
    const read = await context.adapter.findOne<{ samlConfig: string }>({
      model: "ssoProvider",
      where: [{ field: "providerId", value: PROVIDER_ID }],
    });
    // The configuration as the plugin reads it (decrypted) is what a row of the previous version held.
    const plain = read!.samlConfig;
    expect(plain).toContain(SIGNING.privateKey.split("\n")[1]);
    expect(storedSsoSecrets("samlConfig", plain)).toEqual({
      plain: ["spMetadata.privateKey", "spMetadata.privateKeyPass", "spMetadata.encPrivateKey"],
      encrypted: [],
    });
    await app.db.updateTable("ssoProvider").set({ samlConfig: plain }).where("providerId", "=", PROVIDER_ID).execute();

    await checkedInMigrations({ authSecret: app.config.authSecret })["0026-sso-secrets-at-rest"]!.up(app.db);
    const migrated = await storedConfig();
    expectNoSecretIn(migrated);
    expect(storedSsoSecrets("samlConfig", migrated)).toEqual({
      plain: [],
      encrypted: ["spMetadata.privateKey", "spMetadata.privateKeyPass", "spMetadata.encPrivateKey"],
    });
    const { accepted, session } = await signIn(`lee@${DOMAIN}`);
    expect(accepted.status).toBe(302);
    expect(session?.user.email).toBe(`lee@${DOMAIN}`);
  });

  it("reads keys encrypted under another auth secret as none: the signed sign-in cannot start (400)", async () => {
    const before = await storedConfig();
    const config = JSON.parse(before) as { spMetadata: Record<string, unknown> };
    config.spMetadata.privateKeyEncrypted = "ab".repeat(48);
    await app.db
      .updateTable("ssoProvider")
      .set({ samlConfig: JSON.stringify(config) })
      .where("providerId", "=", PROVIDER_ID)
      .execute();
    try {
      const started = await createClient(app).post("/api/auth/sign-in/sso", {
        email: `kim@${DOMAIN}`,
        callbackURL: "/dashboard",
      });
      expect(started.status).toBe(400);
      expect(started.data).toMatchObject({
        message: "authnRequestsSigned is enabled but no privateKey provided in spMetadata or samlConfig",
      });
    } finally {
      await app.db
        .updateTable("ssoProvider")
        .set({ samlConfig: before })
        .where("providerId", "=", PROVIDER_ID)
        .execute();
    }
  });
});

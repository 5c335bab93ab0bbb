import { afterAll, beforeAll, expect, test } from "vitest";
import { createOrganizationWithOwner, createVerifiedUser } from "../test/factories";
import { createTestApp, type TestApp } from "../test/test-database";
import { checkedInMigrations } from "./migrate";
import { storedSsoSecrets } from "./sso-secrets";

/**
 * Migration 0026 on both databases: the SSO providers' secrets stored in plain before it (an OIDC client secret, SAML
 * private keys and a passphrase) are encrypted with the auth secret, and decrypted again by its down step; without
 * the auth secret, or under another one, it fails rather than leave or lose a secret.
 */

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => app?.close());

const PEM = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n";
const PLAIN = {
  "plain-oidc": {
    oidcConfig: { issuer: "https://idp.example.test", clientId: "atrium", clientSecret: "the client secret" },
    samlConfig: null,
  },
  "plain-saml": {
    oidcConfig: null,
    samlConfig: {
      issuer: "https://app.example.test",
      entryPoint: "https://idp.example.test/sso",
      privateKey: PEM,
      spMetadata: { entityID: "https://app.example.test/sp", privateKey: PEM, privateKeyPass: "the passphrase" },
      idpMetadata: { entityID: "https://idp.example.test", encPrivateKey: PEM },
    },
  },
  "no-secret-saml": {
    oidcConfig: null,
    samlConfig: { issuer: "https://app.example.test", entryPoint: "https://idp.example.test/sso", idpMetadata: {} },
  },
};

const storedRows = async () =>
  Object.fromEntries(
    (await app.db.selectFrom("ssoProvider").select(["providerId", "oidcConfig", "samlConfig"]).execute()).map((row) => [
      row.providerId,
      { oidcConfig: row.oidcConfig, samlConfig: row.samlConfig },
    ]),
  );

test("encrypts secrets stored in plain, decrypts them on the way down, refuses without the right secret", async () => {
  const db = app.db;
  const owner = await createVerifiedUser(app, { label: "owner" });
  const organization = await createOrganizationWithOwner(owner, "Acme");
  for (const [providerId, configs] of Object.entries(PLAIN)) {
    await db
      .insertInto("ssoProvider")
      .values({
        id: providerId,
        issuer: "https://idp.example.test",
        oidcConfig: configs.oidcConfig && JSON.stringify(configs.oidcConfig),
        samlConfig: configs.samlConfig && JSON.stringify(configs.samlConfig),
        userId: owner.id,
        providerId,
        organizationId: organization.id,
        domain: `${providerId}.example.test`,
        domainVerified: app.dialect === "sqlite" ? 1 : true,
        domainVerificationToken: null,
      })
      .execute();
  }
  const plainRows = await storedRows();
  const migration = (authSecret: string | null) => checkedInMigrations({ authSecret })["0026-sso-secrets-at-rest"]!;

  // Without the auth secret a plain secret is not left behind: the migration fails (and its run rolls back).
  await expect(migration(null).up(db)).rejects.toThrow(
    "SSO provider plain-oidc holds plain secrets (oidcConfig: clientSecret) and no auth secret was given",
  );

  await migration(app.config.authSecret).up(db);
  const sealed = await storedRows();
  expect(sealed["no-secret-saml"]).toEqual(plainRows["no-secret-saml"]);
  for (const secret of ["the client secret", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "the passphrase"]) {
    expect(JSON.stringify(sealed)).not.toContain(secret);
  }
  expect(storedSsoSecrets("oidcConfig", sealed["plain-oidc"]!.oidcConfig)).toEqual({
    plain: [],
    encrypted: ["clientSecret"],
  });
  expect(storedSsoSecrets("samlConfig", sealed["plain-saml"]!.samlConfig)).toEqual({
    plain: [],
    encrypted: ["privateKey", "spMetadata.privateKey", "spMetadata.privateKeyPass", "idpMetadata.encPrivateKey"],
  });
  // The rest of the configuration stays where it was, for the app's own reads (the SP entity ID, the IdP's).
  expect(JSON.parse(sealed["plain-saml"]!.samlConfig!)).toMatchObject({
    entryPoint: "https://idp.example.test/sso",
    spMetadata: { entityID: "https://app.example.test/sp" },
    idpMetadata: { entityID: "https://idp.example.test" },
  });

  // Applied again, nothing is left to encrypt; without the secret, nothing is asked of it.
  await migration(app.config.authSecret).up(db);
  await migration(null).up(db);
  expect(await storedRows()).toEqual(sealed);

  // Down: under another auth secret the secrets do not decrypt, and are kept rather than lost.
  await expect(migration("another auth secret of at least 32 characters").down!(db)).rejects.toThrow(
    "oidcConfig.clientSecret does not decrypt with this auth secret",
  );
  expect(await storedRows()).toEqual(sealed);
  await migration(app.config.authSecret).down!(db);
  const opened = await storedRows();
  for (const [providerId, configs] of Object.entries(PLAIN)) {
    expect(JSON.parse(opened[providerId]!.oidcConfig ?? "null")).toEqual(configs.oidcConfig);
    expect(JSON.parse(opened[providerId]!.samlConfig ?? "null")).toEqual(configs.samlConfig);
  }
});

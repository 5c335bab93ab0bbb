import { describe, expect, it } from "vitest";
import { openSsoSecrets, sealSsoSecrets, storedSsoSecrets, withoutSsoSecrets } from "./sso-secrets";

const KEY = "an auth secret of at least thirty-two characters";
const OTHER_KEY = "another auth secret of thirty-two characters";

const saml = {
  issuer: "https://app.example.test",
  privateKey: "top-level key",
  spMetadata: { entityID: "https://app.example.test/sp", privateKey: "sp key", privateKeyPass: "sp pass" },
  idpMetadata: { entityID: "https://idp.example.test", encPrivateKey: "idp enc key", encPrivateKeyPass: "idp pass" },
};
const SAML_PATHS = [
  "privateKey",
  "spMetadata.privateKey",
  "spMetadata.privateKeyPass",
  "idpMetadata.encPrivateKey",
  "idpMetadata.encPrivateKeyPass",
];

describe("SSO secrets at rest", () => {
  it("seals each SAML key and passphrase as <name>Encrypted and opens them back to the same JSON", async () => {
    const sealed = (await sealSsoSecrets("samlConfig", JSON.stringify(saml), KEY)) as string;
    for (const secret of ["top-level key", "sp key", "sp pass", "idp enc key", "idp pass"]) {
      expect(sealed).not.toContain(secret);
    }
    expect(storedSsoSecrets("samlConfig", sealed)).toEqual({ plain: [], encrypted: SAML_PATHS });
    expect(JSON.parse(sealed)).toMatchObject({
      issuer: "https://app.example.test",
      spMetadata: { entityID: "https://app.example.test/sp", privateKeyEncrypted: expect.stringMatching(/^[\da-f]+$/) },
    });
    expect(JSON.parse((await openSsoSecrets("samlConfig", sealed, KEY, "throw")) as string)).toEqual(saml);
  });

  it("returns what holds no secret as it came: null, text that is no JSON object, a config without one", async () => {
    for (const value of [null, "not json", "[1,2]", JSON.stringify({ issuer: "https://idp.example.test" })]) {
      expect(await sealSsoSecrets("samlConfig", value, KEY)).toBe(value);
      expect(await openSsoSecrets("samlConfig", value, KEY, "throw")).toBe(value);
    }
  });

  it("reads a secret it cannot decrypt as absent, or refuses it; a plain one beside an encrypted wins", async () => {
    const sealed = (await sealSsoSecrets("oidcConfig", JSON.stringify({ clientSecret: "old" }), KEY)) as string;
    expect(JSON.parse((await openSsoSecrets("oidcConfig", sealed, OTHER_KEY, "omit")) as string)).toEqual({});
    await expect(openSsoSecrets("oidcConfig", sealed, OTHER_KEY, "throw")).rejects.toThrow(
      "oidcConfig.clientSecret does not decrypt with this auth secret",
    );
    // The previous version, during an upgrade, wrote a new secret in plain beside the encrypted one it did not know.
    const both = JSON.stringify({ ...JSON.parse(sealed), clientSecret: "new" });
    expect(JSON.parse((await openSsoSecrets("oidcConfig", both, KEY, "omit")) as string)).toEqual({
      clientSecret: "new",
    });
  });

  it("answers a configuration without its secrets, plain or encrypted, and leaves the one it was given", async () => {
    const sealed = JSON.parse((await sealSsoSecrets("samlConfig", JSON.stringify(saml), KEY)) as string);
    const expected = {
      issuer: "https://app.example.test",
      spMetadata: { entityID: "https://app.example.test/sp" },
      idpMetadata: { entityID: "https://idp.example.test" },
    };
    expect(withoutSsoSecrets("samlConfig", saml)).toEqual(expected);
    expect(withoutSsoSecrets("samlConfig", sealed)).toEqual(expected);
    expect(saml.spMetadata.privateKey).toBe("sp key");
    expect(withoutSsoSecrets("oidcConfig", null)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { oidcConnectionSchema, samlConnectionSchema, ssoDomainSchema, ssoSignInSchema } from "./sso.schemas";

const issues = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  (result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]);

const CERTIFICATE = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";

describe("ssoDomainSchema", () => {
  it.each(["example.com", "eu.example.org", "Acme.Test"])("takes %s, in lower case", (domain) => {
    expect(ssoDomainSchema.parse(domain)).toBe(domain.toLowerCase());
  });

  it.each(["example", "@example.com", "https://example.com", "exa mple.com", "-x.com"])("refuses %s", (domain) => {
    expect(ssoDomainSchema.safeParse(domain).success).toBe(false);
  });
});

describe("ssoSignInSchema", () => {
  it("wants an e-mail address", () => {
    expect(ssoSignInSchema.safeParse({ email: "ada@example.com" }).success).toBe(true);
    expect(ssoSignInSchema.safeParse({ email: "example.com" }).success).toBe(false);
  });
});

describe("oidcConnectionSchema", () => {
  it("takes an issuer address and a client", () => {
    const values = { domain: "example.com", issuer: "https://login.example.com", clientId: "a", clientSecret: "b" };
    expect(oidcConnectionSchema.parse(values)).toEqual(values);
  });

  it("says which field is missing or wrong", () => {
    const result = oidcConnectionSchema.safeParse({ domain: "", issuer: "ftp://x", clientId: " ", clientSecret: "" });
    expect(issues(result)).toEqual([
      ["domain", "Enter your company's e-mail domain"],
      ["issuer", "Enter a full address starting with https://"],
      ["clientId", "Enter the client ID"],
      ["clientSecret", "Enter the client secret"],
    ]);
  });
});

describe("samlConnectionSchema", () => {
  const blank = {
    domain: "example.com",
    metadataXml: "",
    metadataUrl: "",
    entityId: "",
    entryPoint: "",
    certificate: "",
  };

  it("checks only the chosen source's fields", () => {
    const result = samlConnectionSchema.safeParse({ ...blank, source: "metadata-url", metadataUrl: "https://idp/m" });
    expect(result.success).toBe(true);
    expect(issues(samlConnectionSchema.safeParse({ ...blank, source: "metadata-url" }))).toEqual([
      ["metadataUrl", "Enter the metadata URL"],
    ]);
  });

  it("says what is missing in the source's fields and the domain at once", () => {
    expect(issues(samlConnectionSchema.safeParse({ ...blank, domain: "", source: "metadata-xml" }))).toEqual([
      ["metadataXml", "Paste or upload the identity provider's metadata"],
      ["domain", "Enter your company's e-mail domain"],
    ]);
    expect(
      samlConnectionSchema.parse({ ...blank, domain: "Acme.COM", source: "metadata-url", metadataUrl: "https://i/m" }),
    ).toMatchObject({ domain: "acme.com", metadataUrl: "https://i/m" });
  });

  it("wants SAML metadata, not any text", () => {
    expect(issues(samlConnectionSchema.safeParse({ ...blank, source: "metadata-xml", metadataXml: "hello" }))).toEqual([
      ["metadataXml", "This is not SAML metadata: it should be XML with an EntityDescriptor"],
    ]);
    const xml = '<md:EntityDescriptor entityID="https://idp"/>';
    expect(samlConnectionSchema.parse({ ...blank, source: "metadata-xml", metadataXml: ` ${xml} ` }).metadataXml).toBe(
      xml,
    );
  });

  it("wants every value by hand, the certificate in PEM form", () => {
    const result = samlConnectionSchema.safeParse({ ...blank, source: "manual", certificate: "MIIB" });
    expect(issues(result)).toEqual([
      ["entityId", "Enter the identity provider's entity ID"],
      ["entryPoint", "Enter the single sign-on URL"],
      [
        "certificate",
        "Paste the certificate in PEM form, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----",
      ],
    ]);
    const manual = { ...blank, source: "manual", entityId: "https://idp", entryPoint: "https://idp/sso" };
    expect(samlConnectionSchema.safeParse({ ...manual, certificate: CERTIFICATE }).success).toBe(true);
  });
});

import { startDevDnsServer, type DevDnsServer } from "../modules/sso";
import type { TestClient, TestResponse } from "./request";
import type { TestApp } from "./test-database";

/**
 * Enterprise SSO in tests: a real DNS server on 127.0.0.1 that the app asks (`DNS_SERVERS`), and an organization's
 * OIDC provider registered against the development identity provider (the app must listen, with
 * `DEV_IDENTITY_PROVIDER: "true"`, so that the plugin's discovery reaches it over HTTP).
 */

export type TestDns = DevDnsServer;

export const startTestDns = (): Promise<TestDns> => startDevDnsServer();

/** POST /api/auth/sso/register of an OIDC provider found by discovery at the dev identity provider. */
export function registerDevProvider(
  app: TestApp,
  client: TestClient,
  input: { providerId: string; domain: string; organizationId: string },
): Promise<TestResponse> {
  const devIdentity = app.services.devIdentity;
  if (!devIdentity)
    throw new Error("the dev identity provider is off: createTestApp({ env: { DEV_IDENTITY_PROVIDER } })");
  return client.post("/api/auth/sso/register", {
    ...input,
    issuer: devIdentity.issuer,
    oidcConfig: { clientId: devIdentity.ssoClient.clientId, clientSecret: devIdentity.ssoClient.clientSecret },
  });
}

/** Publishes the provider's TXT record (asked of the app) on the test DNS server and verifies the domain. */
export async function verifyProviderDomain(
  client: TestClient,
  dns: TestDns,
  providerId: string,
): Promise<TestResponse> {
  const requested = await client.post("/api/auth/sso/request-domain-verification", { providerId });
  if (requested.status !== 200) throw new Error(`request-domain-verification answered ${requested.status}`);
  const { record } = requested.data as { record: { name: string; value: string } };
  dns.records.publish(record.name, record.value);
  return client.post("/api/auth/sso/verify-domain", { providerId });
}

let counter = 0;
/** A domain and provider id nobody else in the run has. */
export function uniqueSsoNames(prefix = "acme"): { providerId: string; domain: string } {
  counter += 1;
  const suffix = `${counter}-${Math.random().toString(36).slice(2, 8)}`;
  return { providerId: `${prefix}-${suffix}`, domain: `${prefix}-${suffix}.example.test` };
}

/** The hidden fields of a SAML page's form (`name="…" value="…"`: the IdP's login page, its post page), decoded. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[name!] = value!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  }
  return fields;
}

/** A form's fields as a browser posts them. */
export const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  contentType: "application/x-www-form-urlencoded",
});

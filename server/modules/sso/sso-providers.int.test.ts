import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createOrganizationWithOwner, createVerifiedUser, type TestUser } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import { registerDevProvider, startTestDns, uniqueSsoNames, verifyProviderDomain, type TestDns } from "../../test/sso";
import { createTestApp, type TestApp } from "../../test/test-database";

const ADMIN_REQUIRED = "Only the organization's owners and admins can manage its SSO";

/** A self-signed certificate standing for a SAML IdP's signing certificate (public; its key is nowhere). */
const IDP_CERTIFICATE =
  "-----BEGIN CERTIFICATE-----\nMIIDFzCCAf+gAwIBAgIUAgz3jX1ZSdc93R1oCMQz2AY/mmEwDQYJKoZIhvcNAQEL\nBQAwGzEZMBcGA1UEAwwQaWRwLmV4YW1wbGUudGVzdDAeFw0yNjEyMDIwMDA0MjZa\nFw0zNjExMjkwMDA0MjZaMBsxGTAXBgNVBAMMEGlkcC5leGFtcGxlLnRlc3QwggEi\nMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEKAoIBAQCR6LowZOHzrV3mzo2lainz4geK\nK2txvF3QVCxCK0YE/hZeQye5gkdaGQNWZZ50hHQae2BABghWIjRCVTNj3q9WQtKx\n/PC2vxz3kFfOeLPRh6otdSemzK0fFwGy6j4BlEsLAU8+nBsCtXEiQvWuqIAUkCdU\njfjWf9ZMqIk8Tb8ecdptTtR6lRIyJS4bniTSP9v1zPiUpuOI02wR145hMDfI6OlY\nOS8SsUwAarlIvQ70FRJsDVa62TqIcTCv9XDHEvzT0vbJl5qxVvOqOhZAaHQtyl+v\nlD/x1q86ACKDCiSw8I4+NBZerNO3+pnAd87zw7NskhV3/9lmf+maQl2TnnMfAgMB\nAAGjUzBRMB0GA1UdDgQWBBQdv3s4WfRSLvHRD/8DGMR8esJASTAfBgNVHSMEGDAW\ngBQdv3s4WfRSLvHRD/8DGMR8esJASTAPBgNVHRMBAf8EBTADAQH/MA0GCSqGSIb3\nDQEBCwUAA4IBAQBcP/9J+mGCLwVioz2mhANYDCG/ySzSGxskoGdH/S1/agGbtTtr\nxX4EEBgKlg4ZOLJzgAPJYN+//wmW2A3Fp+G1XSwolzuw8NYEYxKQc4xsVCEulq4m\nEXllnBeQxy2dtOqLSHDEtZZCZxdOZguYuzYd5i7FyAtp7ISaI2Tz7lTScBqIwlbN\nViLJbbSoJ9UQnJn9tQ28AbowukpXJ6ICBbvLqMyy/znOPxWyE136wTDFejjiQauZ\ngAiXSO+zozHBZUEfYmh6wj6LEQhgpxNFAwv9ht7HZV8vt7BFoL7M+N8FEVa4PHZx\nFr3+WbkHDNBIDVMPAe5w/lpNERaJlB1ZhiGT\n-----END CERTIFICATE-----";

/**
 * An OIDC issuer on 127.0.0.1 (listed in TRUSTED_ORIGINS) whose discovery document waits until the test answers it:
 * `nextDiscovery()` resolves when the document is asked for, with the function that sends it.
 */
async function startHeldIssuer() {
  const waiting: Array<(answer: () => void) => void> = [];
  const server = http.createServer((request, response) => {
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (request.url !== "/.well-known/openid-configuration") return void response.writeHead(404).end();
    const answer = () =>
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
        }),
      );
    waiting.shift()?.(answer);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    nextDiscovery: () => new Promise<() => void>((resolve) => waiting.push(resolve)),
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

const TWO_FACTOR_REQUIRED =
  "This organization requires a second factor: set one up in your account's security settings";

describe("an organization's SSO providers", () => {
  let app: TestApp;
  let dns: TestDns;
  let heldIssuer: Awaited<ReturnType<typeof startHeldIssuer>>;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let organization: { id: string; slug: string };

  beforeAll(async () => {
    dns = await startTestDns();
    heldIssuer = await startHeldIssuer();
    app = await createTestApp({
      listen: true,
      env: { DEV_IDENTITY_PROVIDER: "true", DNS_SERVERS: dns.address, TRUSTED_ORIGINS: heldIssuer.issuer },
    });
    owner = await createVerifiedUser(app, { label: "owner" });
    admin = await createVerifiedUser(app, { label: "admin" });
    member = await createVerifiedUser(app, { label: "member" });
    outsider = await createVerifiedUser(app, { label: "outsider" });
    organization = await createOrganizationWithOwner(owner, "Acme");
    await addMember(owner, organization.id, admin, "admin");
    await addMember(owner, organization.id, member, "member");
  });
  afterAll(async () => {
    await app.close();
    await dns.close();
    await heldIssuer.close();
  });

  const auditEntries = (action: string, organizationId: string) =>
    app.db
      .selectFrom("audit_event")
      .select(["action", "actor_id", "organization_id", "details"])
      .where("action", "=", action)
      .where("organization_id", "=", organizationId)
      .execute();
  const providerCount = async () =>
    Number(
      (
        await app.db
          .selectFrom("ssoProvider")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("lets owners and admins register an OIDC provider found by discovery, audited in the same transaction", async () => {
    const names = uniqueSsoNames();
    const response = await registerDevProvider(app, owner.client, { ...names, organizationId: organization.id });
    expect(response.status).toBe(200);
    expect(response.data).toMatchObject({
      providerId: names.providerId,
      domain: names.domain,
      organizationId: organization.id,
      domainVerified: false,
      redirectURI: `${app.config.baseUrl}/api/auth/sso/callback/${names.providerId}`,
      oidcConfig: {
        issuer: `${app.config.baseUrl}/dev/oidc`,
        authorizationEndpoint: `${app.config.baseUrl}/dev/oidc/auth`,
        tokenEndpoint: `${app.config.baseUrl}/dev/oidc/token`,
        pkce: true,
      },
    });
    // The secret it was sent is not repeated (the plugin's other answers leave it out too), and it is kept encrypted.
    const clientSecret = app.services.devIdentity!.ssoClient.clientSecret;
    expect(response.data.oidcConfig).not.toHaveProperty("clientSecret");
    expect(JSON.stringify(response.data)).not.toContain(clientSecret);
    const stored = await app.db
      .selectFrom("ssoProvider")
      .select("oidcConfig")
      .where("providerId", "=", names.providerId)
      .executeTakeFirstOrThrow();
    expect(stored.oidcConfig).not.toContain(clientSecret);
    const storedConfig = JSON.parse(stored.oidcConfig ?? "{}") as Record<string, unknown>;
    expect(storedConfig).not.toHaveProperty("clientSecret");
    expect(storedConfig).toMatchObject({
      clientId: "atrium-sso",
      clientSecretEncrypted: expect.stringMatching(/^[\da-f]{64,}$/),
    });
    expect(await auditEntries("organization.sso_provider_registered", organization.id)).toEqual([
      {
        action: "organization.sso_provider_registered",
        actor_id: owner.id,
        organization_id: organization.id,
        details: JSON.stringify({
          providerId: names.providerId,
          domain: names.domain,
          type: "oidc",
          issuer: `${app.config.baseUrl}/dev/oidc`,
        }),
      },
    ]);

    const byAdmin = await registerDevProvider(app, admin.client, {
      ...uniqueSsoNames("beta"),
      organizationId: organization.id,
    });
    expect(byAdmin.status).toBe(200);
  });

  it("discovers only from an issuer on the public internet or in TRUSTED_ORIGINS, recording nothing otherwise", async () => {
    const before = await providerCount();
    for (const issuer of [
      "https://idp.internal.example.test",
      "https://10.1.2.3/realms/acme",
      "http://idp.example.org",
    ]) {
      const response = await owner.client.post("/api/auth/sso/register", {
        ...uniqueSsoNames(),
        organizationId: organization.id,
        issuer,
        oidcConfig: { clientId: "atrium", clientSecret: "secret" },
      });
      const discovery = `${issuer}/.well-known/openid-configuration`;
      expect({ status: response.status, data: response.data }).toEqual({
        status: 400,
        data: {
          code: "discovery_untrusted_origin",
          message: `Untrusted OIDC discovery URL: The main discovery endpoint "${discovery}" is not trusted by your trusted origins configuration.`,
          requestId: expect.any(String),
        },
      });
    }
    expect(await providerCount()).toBe(before);
  });

  it("fetches the issuer's discovery document before the registration's transaction opens", async () => {
    /**
     * Whether the database is free for others while the document is on its way: SQLite takes a write (a transaction
     * holds its one connection, and the writer lock), PostgreSQL has no transaction open in this database.
     */
    const databaseIsFree = async () => {
      if (app.dialect === "sqlite") {
        const write = app.db
          .updateTable("organization")
          .set({ name: "Acme" })
          .where("id", "=", organization.id)
          .execute()
          .then(() => true);
        return Promise.race([write, new Promise<false>((resolve) => setTimeout(() => resolve(false), 3_000))]);
      }
      const { rows } = await sql<{ open: number }>`
        SELECT count(*)::int AS open FROM pg_stat_activity
        WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`.execute(app.db);
      return rows[0]?.open === 0;
    };
    const names = uniqueSsoNames("held");
    const discovery = heldIssuer.nextDiscovery();
    const registering = owner.client.post("/api/auth/sso/register", {
      ...names,
      organizationId: organization.id,
      issuer: heldIssuer.issuer,
      oidcConfig: { clientId: "atrium", clientSecret: "held-secret" },
    });
    const answerDiscovery = await discovery;
    const isFree = await databaseIsFree();
    answerDiscovery();
    const response = await registering;
    expect(isFree).toBe(true);
    expect(response.status).toBe(200);
    expect(response.data).toMatchObject({
      providerId: names.providerId,
      issuer: heldIssuer.issuer,
      oidcConfig: {
        issuer: heldIssuer.issuer,
        discoveryEndpoint: `${heldIssuer.issuer}/.well-known/openid-configuration`,
        authorizationEndpoint: `${heldIssuer.issuer}/authorize`,
        tokenEndpoint: `${heldIssuer.issuer}/token`,
        jwksEndpoint: `${heldIssuer.issuer}/jwks`,
        tokenEndpointAuthentication: "client_secret_basic",
      },
    });
  });

  it("answers an issuer without a discovery document as the plugin does, recording nothing", async () => {
    const before = await providerCount();
    const response = await owner.client.post("/api/auth/sso/register", {
      ...uniqueSsoNames(),
      organizationId: organization.id,
      issuer: `${heldIssuer.issuer}/nowhere`,
      oidcConfig: { clientId: "atrium", clientSecret: "secret" },
    });
    expect({ status: response.status, data: response.data }).toEqual({
      status: 400,
      data: {
        code: "discovery_not_found",
        message:
          "OIDC discovery endpoint not found. The issuer may not support OIDC discovery, or the URL is incorrect. " +
          "Discovery endpoint not found",
        requestId: expect.any(String),
      },
    });
    expect(await providerCount()).toBe(before);
  });

  it("refuses members and outsiders with 403, registering and recording nothing", async () => {
    const before = await providerCount();
    const entries = (await auditEntries("organization.sso_provider_registered", organization.id)).length;
    for (const caller of [member, outsider]) {
      const response = await registerDevProvider(app, caller.client, {
        ...uniqueSsoNames(),
        organizationId: organization.id,
      });
      const body = await expectError(response, 403, ADMIN_REQUIRED);
      expect(body.code).toBe("SSO_ADMIN_REQUIRED");
    }
    expect(await providerCount()).toBe(before);
    expect(await auditEntries("organization.sso_provider_registered", organization.id)).toHaveLength(entries);
    await expectError(
      await registerDevProvider(app, createClient(app), { ...uniqueSsoNames(), organizationId: organization.id }),
      401,
      "Unauthorized",
    );
  });

  it("refuses an admin without a second factor while the organization requires one, as its other routes do", async () => {
    const guarded = await createOrganizationWithOwner(owner, "Guarded");
    await addMember(owner, guarded.id, admin, "admin");
    await app.db.updateTable("organization").set({ requireTwoFactor: 1 }).where("id", "=", guarded.id).execute();
    const before = await providerCount();
    const response = await registerDevProvider(app, admin.client, { ...uniqueSsoNames(), organizationId: guarded.id });
    const body = await expectError(response, 403, TWO_FACTOR_REQUIRED);
    expect(body.code).toBe("TWO_FACTOR_REQUIRED");
    expect(await providerCount()).toBe(before);
    await expectError(await admin.client.get(`/api/organizations/${guarded.id}/sso`), 403, TWO_FACTOR_REQUIRED);
  });

  it("records nothing when the plugin refuses the registration (a provider id taken)", async () => {
    const names = uniqueSsoNames();
    expect((await registerDevProvider(app, owner.client, { ...names, organizationId: organization.id })).status).toBe(
      200,
    );
    const entries = (await auditEntries("organization.sso_provider_registered", organization.id)).length;
    const again = await registerDevProvider(app, owner.client, {
      providerId: names.providerId,
      domain: uniqueSsoNames().domain,
      organizationId: organization.id,
    });
    await expectError(again, 422, "SSO provider with this providerId already exists");
    expect(await auditEntries("organization.sso_provider_registered", organization.id)).toHaveLength(entries);
  });

  it("answers hostile or malformed bodies with 400 and stores nothing", async () => {
    const before = await providerCount();
    const cases: Array<[unknown, string]> = [
      [
        {
          providerId: "Bad Id!",
          issuer: "https://id.example",
          domain: "example.com",
          organizationId: organization.id,
          oidcConfig: { clientId: "x" },
        },
        "providerId: Use lowercase letters, digits and dashes (not at either end)",
      ],
      [
        {
          providerId: "ok",
          issuer: "https://id.example",
          domain: "not a domain",
          organizationId: organization.id,
          oidcConfig: { clientId: "x" },
        },
        "domain: Enter a domain name such as example.com",
      ],
      [
        {
          providerId: "ok",
          issuer: "javascript:alert(1)",
          domain: "example.com",
          organizationId: organization.id,
          oidcConfig: { clientId: "x" },
        },
        "issuer: Enter an absolute http(s) URL",
      ],
      [
        { providerId: "ok", issuer: "https://id.example", domain: "example.com", organizationId: organization.id },
        "oidcConfig: Send either oidcConfig or samlConfig",
      ],
      [
        {
          providerId: "ok",
          issuer: "https://id.example",
          domain: "example.com",
          organizationId: organization.id,
          oidcConfig: { clientId: "x", extra: 1 },
        },
        "oidcConfig.extra: Unknown field",
      ],
    ];
    for (const [body, message] of cases) {
      const response = await owner.client.post("/api/auth/sso/register", body);
      expect({ status: response.status, data: response.data }).toEqual({
        status: 400,
        data: { code: "VALIDATION_ERROR", message, requestId: expect.any(String) },
      });
    }
    const verify = await owner.client.post("/api/auth/sso/verify-domain", { providerId: ["x"] });
    expect(verify.status).toBe(400);
    expect(await providerCount()).toBe(before);
  });

  it("proves the domain by a DNS TXT record: refused while it is missing or wrong, verified once published", async () => {
    const names = uniqueSsoNames();
    expect((await registerDevProvider(app, owner.client, { ...names, organizationId: organization.id })).status).toBe(
      200,
    );
    const requested = await owner.client.post("/api/auth/sso/request-domain-verification", {
      providerId: names.providerId,
    });
    expect(requested.status).toBe(200);
    const { record, domainVerificationToken } = requested.data as {
      record: { type: string; name: string; value: string };
      domainVerificationToken: string;
    };
    expect(record).toEqual({
      type: "TXT",
      name: `_atrium-sso-${names.providerId}.${names.domain}`,
      value: `atrium-sso=${domainVerificationToken}`,
    });
    // Asking again answers the same record: the one already published stays valid.
    const again = await owner.client.post("/api/auth/sso/request-domain-verification", {
      providerId: names.providerId,
    });
    expect(again.data).toEqual(requested.data);

    const missing = await owner.client.post("/api/auth/sso/verify-domain", { providerId: names.providerId });
    const refused = await expectError(
      missing,
      400,
      "The TXT record was not found: publish it at your DNS host, wait for it to spread, then try again",
    );
    expect(refused).toMatchObject({ code: "SSO_DNS_RECORD_NOT_FOUND", details: { record } });

    dns.records.publish(record.name, "atrium-sso=someone-elses-token");
    await expectError(
      await owner.client.post("/api/auth/sso/verify-domain", { providerId: names.providerId }),
      400,
      "The TXT record was not found: publish it at your DNS host, wait for it to spread, then try again",
    );
    await expectError(
      await member.client.post("/api/auth/sso/verify-domain", { providerId: names.providerId }),
      403,
      ADMIN_REQUIRED,
    );

    dns.records.publish(record.name, record.value);
    const verified = await owner.client.post("/api/auth/sso/verify-domain", { providerId: names.providerId });
    expect({ status: verified.status, data: verified.data }).toEqual({
      status: 200,
      data: { providerId: names.providerId, domain: names.domain, domainVerified: true },
    });
    expect(await auditEntries("organization.sso_domain_verified", organization.id)).toContainEqual({
      action: "organization.sso_domain_verified",
      actor_id: owner.id,
      organization_id: organization.id,
      details: JSON.stringify({ providerId: names.providerId, domain: names.domain }),
    });
    await expectError(
      await owner.client.post("/api/auth/sso/verify-domain", { providerId: names.providerId }),
      409,
      "This domain is already verified",
    );
  });

  it("says which DNS servers did not answer apart from a missing record", async () => {
    const silent = await createTestApp({
      listen: true,
      // A port where nothing answers: the lookup times out.
      env: { DEV_IDENTITY_PROVIDER: "true", DNS_SERVERS: "127.0.0.1:9" },
    });
    try {
      const someone = await createVerifiedUser(silent, { label: "owner" });
      const own = await createOrganizationWithOwner(someone, "Silent");
      const names = uniqueSsoNames();
      expect((await registerDevProvider(silent, someone.client, { ...names, organizationId: own.id })).status).toBe(
        200,
      );
      const response = await someone.client.post("/api/auth/sso/verify-domain", { providerId: names.providerId });
      expect((await expectError(response, 502, "The DNS servers did not answer: try again in a moment")).code).toBe(
        "SSO_DNS_UNAVAILABLE",
      );
    } finally {
      await silent.close();
    }
  });

  it("refuses a domain another organization verified, at registration and at verification", async () => {
    const names = uniqueSsoNames();
    expect((await registerDevProvider(app, owner.client, { ...names, organizationId: organization.id })).status).toBe(
      200,
    );
    const rival = await createVerifiedUser(app, { label: "rival" });
    const rivalOrganization = await createOrganizationWithOwner(rival, "Rival");
    const rivalNames = { providerId: uniqueSsoNames("rival").providerId, domain: names.domain };
    // Both may claim it while nobody has proven it.
    expect(
      (await registerDevProvider(app, rival.client, { ...rivalNames, organizationId: rivalOrganization.id })).status,
    ).toBe(200);
    expect((await verifyProviderDomain(owner.client, dns, names.providerId)).status).toBe(200);

    const taken = "This domain is already verified by another organization";
    expect(
      (await expectError(await verifyProviderDomain(rival.client, dns, rivalNames.providerId), 409, taken)).code,
    ).toBe("SSO_DOMAIN_TAKEN");
    await expectError(
      await registerDevProvider(app, rival.client, {
        providerId: uniqueSsoNames("rival").providerId,
        domain: names.domain.toUpperCase(),
        organizationId: rivalOrganization.id,
      }),
      409,
      taken,
    );
  });

  it("lets only one of two organizations verifying the same domain at the same moment have it", async () => {
    const domain = uniqueSsoNames().domain;
    const contenders = await Promise.all(
      ["first", "second"].map(async (label) => {
        const user = await createVerifiedUser(app, { label });
        const own = await createOrganizationWithOwner(user, label);
        const providerId = uniqueSsoNames(label).providerId;
        expect(
          (await registerDevProvider(app, user.client, { providerId, domain, organizationId: own.id })).status,
        ).toBe(200);
        const requested = await user.client.post("/api/auth/sso/request-domain-verification", { providerId });
        const { record } = requested.data as { record: { name: string; value: string } };
        dns.records.publish(record.name, record.value);
        return { user, providerId };
      }),
    );
    const answers = await Promise.all(
      contenders.map(({ user, providerId }) => user.client.post("/api/auth/sso/verify-domain", { providerId })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)?.data).toMatchObject({
      code: "SSO_DOMAIN_TAKEN",
      message: "This domain is already verified by another organization",
    });
    const verified = await app.db
      .selectFrom("ssoProvider")
      .select("providerId")
      .where("domain", "=", domain)
      .where("domainVerified", "=", 1)
      .execute();
    expect(verified).toHaveLength(1);
  });

  it("audits a change of domain (unverified again) and a removal; another organization's owner can do neither", async () => {
    const names = uniqueSsoNames("changing");
    expect((await registerDevProvider(app, owner.client, { ...names, organizationId: organization.id })).status).toBe(
      200,
    );
    expect((await verifyProviderDomain(owner.client, dns, names.providerId)).status).toBe(200);
    const stranger = await createVerifiedUser(app, { label: "stranger" });
    await createOrganizationWithOwner(stranger, "Elsewhere");
    for (const path of [
      "/api/auth/sso/request-domain-verification",
      "/api/auth/sso/verify-domain",
      "/api/auth/sso/delete-provider",
    ]) {
      await expectError(await stranger.client.post(path, { providerId: names.providerId }), 403, ADMIN_REQUIRED);
    }
    await expectError(
      await stranger.client.post("/api/auth/sso/update-provider", {
        providerId: names.providerId,
        domain: "stolen.example.test",
      }),
      403,
      ADMIN_REQUIRED,
    );

    const moved = uniqueSsoNames("moved").domain;
    const updated = await admin.client.post("/api/auth/sso/update-provider", {
      providerId: names.providerId,
      domain: moved.toUpperCase(),
    });
    expect(updated.status).toBe(200);
    const row = await app.db
      .selectFrom("ssoProvider")
      .select(["domain", "domainVerified"])
      .where("providerId", "=", names.providerId)
      .executeTakeFirstOrThrow();
    expect({ domain: row.domain, domainVerified: Boolean(row.domainVerified) }).toEqual({
      domain: moved,
      domainVerified: false,
    });
    expect(await auditEntries("organization.sso_provider_updated", organization.id)).toContainEqual({
      action: "organization.sso_provider_updated",
      actor_id: admin.id,
      organization_id: organization.id,
      details: JSON.stringify({ providerId: names.providerId, fields: ["domain"], from: names.domain, to: moved }),
    });

    expect((await owner.client.post("/api/auth/sso/delete-provider", { providerId: names.providerId })).status).toBe(
      200,
    );
    expect(
      await app.db.selectFrom("ssoProvider").select("id").where("providerId", "=", names.providerId).execute(),
    ).toEqual([]);
    expect(await auditEntries("organization.sso_provider_deleted", organization.id)).toContainEqual({
      action: "organization.sso_provider_deleted",
      actor_id: owner.id,
      organization_id: organization.id,
      details: JSON.stringify({ providerId: names.providerId, domain: moved }),
    });
    await expectError(
      await owner.client.post("/api/auth/sso/delete-provider", { providerId: names.providerId }),
      404,
      "SSO provider not found",
    );
  });

  /** Registers a SAML provider of the owner's organization at the test IdP, with `samlConfig` added to its config. */
  const registerSaml = (names: ReturnType<typeof uniqueSsoNames>, samlConfig: Record<string, unknown>) =>
    owner.client.post("/api/auth/sso/register", {
      ...names,
      organizationId: organization.id,
      issuer: "https://idp.example.test/saml",
      samlConfig: { entryPoint: "https://idp.example.test/saml/sso", cert: IDP_CERTIFICATE, ...samlConfig },
    });

  it("registers a SAML provider whose service provider (entity id, ACS, metadata) lives under BASE_URL", async () => {
    const names = uniqueSsoNames("saml");
    const response = await registerSaml(names, { idpMetadata: { entityID: "https://idp.example.test/saml" } });
    expect(response.status).toBe(200);
    const metadataUrl = `${app.config.baseUrl}/api/auth/sso/saml2/sp/metadata?providerId=${names.providerId}`;
    expect(response.data.samlConfig).toMatchObject({ audience: metadataUrl, spMetadata: { entityID: metadataUrl } });

    const metadata = await createClient(app).get(`/api/auth/sso/saml2/sp/metadata?providerId=${names.providerId}`);
    expect(metadata.status).toBe(200);
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${metadataUrl.replace("&", "&amp;")}"`);
    expect(xml).toContain(`Location="${app.config.baseUrl}/api/auth/sso/saml2/sp/acs/${names.providerId}"`);

    const listed = (await owner.client.get(`/api/organizations/${organization.id}/sso`)).data as {
      providers: Array<{ providerId: string; type: string; clientId: string | null; serviceProvider: unknown }>;
    };
    expect(listed.providers.find((provider) => provider.providerId === names.providerId)).toMatchObject({
      type: "saml",
      clientId: null,
      serviceProvider: {
        entityId: metadataUrl,
        acsUrl: `${app.config.baseUrl}/api/auth/sso/saml2/sp/acs/${names.providerId}`,
      },
    });
  });

  it("refuses SAML metadata that disagrees with authnRequestsSigned on signing, and stores nothing", async () => {
    const metadata = (wants: string) =>
      `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.test/saml">` +
      `<IDPSSODescriptor ${wants} protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
      `<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" ` +
      `Location="https://idp.example.test/saml/sso"/></IDPSSODescriptor></EntityDescriptor>`;
    const cases = [
      {
        wants: `WantAuthnRequestsSigned="false"`,
        signed: true,
        details: { idpWantsSigned: false, requestsSigned: true },
      },
      { wants: "", signed: true, details: { idpWantsSigned: false, requestsSigned: true } },
      {
        wants: `WantAuthnRequestsSigned="true"`,
        signed: undefined,
        details: { idpWantsSigned: true, requestsSigned: false },
      },
    ];
    for (const { wants, signed, details } of cases) {
      const names = uniqueSsoNames("signing");
      const response = await registerSaml(names, {
        idpMetadata: { metadata: metadata(wants) },
        ...(signed === undefined ? {} : { authnRequestsSigned: signed }),
      });
      const body = await expectError(
        response,
        400,
        "The IdP metadata and authnRequestsSigned disagree on signing sign-in requests",
      );
      expect(body.code).toBe("SSO_SAML_SIGNING_CONFLICT");
      expect(response.data.details).toEqual(details);
      const stored = await app.db
        .selectFrom("ssoProvider")
        .select("id")
        .where("providerId", "=", names.providerId)
        .executeTakeFirst();
      expect(stored).toBeUndefined();
    }
  });

  it("lists the organization's providers for owners and admins with the record and the values for the IdP", async () => {
    const own = await createOrganizationWithOwner(owner, "Listed");
    const pending = uniqueSsoNames("pending");
    const proven = uniqueSsoNames("proven");
    for (const names of [pending, proven])
      expect((await registerDevProvider(app, owner.client, { ...names, organizationId: own.id })).status).toBe(200);
    expect((await verifyProviderDomain(owner.client, dns, proven.providerId)).status).toBe(200);
    const token = (
      await app.db
        .selectFrom("ssoProvider")
        .select("domainVerificationToken")
        .where("providerId", "=", pending.providerId)
        .executeTakeFirstOrThrow()
    ).domainVerificationToken;

    const response = await owner.client.get(`/api/organizations/${own.id}/sso`);
    expect(response.status).toBe(200);
    const auth = `${app.config.baseUrl}/api/auth`;
    const serviceProvider = (providerId: string) => ({
      oidcRedirectUri: `${auth}/sso/callback/${providerId}`,
      acsUrl: `${auth}/sso/saml2/sp/acs/${providerId}`,
      entityId: `${auth}/sso/saml2/sp/metadata?providerId=${providerId}`,
      metadataUrl: `${auth}/sso/saml2/sp/metadata?providerId=${providerId}`,
    });
    expect(response.data).toEqual({
      organizationSlug: own.slug,
      requireSso: false,
      allowDomainJoin: false,
      providers: [
        {
          providerId: pending.providerId,
          type: "oidc",
          issuer: `${app.config.baseUrl}/dev/oidc`,
          domain: pending.domain,
          domainVerified: false,
          domainRecord: {
            type: "TXT",
            name: `_atrium-sso-${pending.providerId}.${pending.domain}`,
            value: `atrium-sso=${token}`,
          },
          clientId: "atrium-sso",
          firstSignInAt: null,
          serviceProvider: serviceProvider(pending.providerId),
        },
        {
          providerId: proven.providerId,
          type: "oidc",
          issuer: `${app.config.baseUrl}/dev/oidc`,
          domain: proven.domain,
          domainVerified: true,
          domainRecord: null,
          clientId: "atrium-sso",
          firstSignInAt: null,
          serviceProvider: serviceProvider(proven.providerId),
        },
      ],
    });
    expect(JSON.stringify(response.data)).not.toContain(app.services.devIdentity!.ssoClient.clientSecret);

    await expectError(
      await member.client.get(`/api/organizations/${organization.id}/sso`),
      403,
      "You are not allowed to access resource: organization",
    );
    await expectError(
      await outsider.client.get(`/api/organizations/${own.id}/sso`),
      403,
      "user is not a member of the organization",
    );
  });
});

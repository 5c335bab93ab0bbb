import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrganizationSso } from "../../../common/sso.schemas";
import { authorizeAtDevProvider, locationOf, visitCallback } from "../../test/dev-identity";
import {
  buildUser,
  createOrganizationWithOwner,
  createVerifiedUser,
  getSession,
  type CreatedOrganization,
  type TestUser,
} from "../../test/factories";
import { createClient, expectError, type TestClient } from "../../test/request";
import { registerDevProvider, startTestDns, uniqueSsoNames, verifyProviderDomain, type TestDns } from "../../test/sso";
import { createTestApp, type TestApp } from "../../test/test-database";
import { totpCode } from "../../test/totp";

const SSO_CALLBACK = "/api/auth/sso/callback/";
const SSO_REQUIRED = "Your organization signs in with SSO: continue with SSO instead of a password";

describe("signing in through an organization's SSO provider", () => {
  let app: TestApp;
  let dns: TestDns;
  let owner: TestUser;
  let organization: CreatedOrganization;
  let names: { providerId: string; domain: string };

  beforeAll(async () => {
    dns = await startTestDns();
    app = await createTestApp({ listen: true, env: { DEV_IDENTITY_PROVIDER: "true", DNS_SERVERS: dns.address } });
    names = uniqueSsoNames();
    owner = await createVerifiedUser(app, {
      label: "owner",
      email: `owner.${randomBytes(3).toString("hex")}@${names.domain}`,
    });
    organization = await createOrganizationWithOwner(owner, "Acme");
    expect((await registerDevProvider(app, owner.client, { ...names, organizationId: organization.id })).status).toBe(
      200,
    );
    expect((await verifyProviderDomain(owner.client, dns, names.providerId)).status).toBe(200);
  });
  afterAll(async () => {
    await app.close();
    await dns.close();
  });

  const startSso = (client: TestClient, body: Record<string, unknown>) =>
    client.post("/api/auth/sign-in/sso", { callbackURL: "/dashboard", ...body });
  /** A whole sign-in through the provider as `email` (the IdP vouching for it): discovery, the IdP, the callback. */
  const throughProvider = async (email: string, name: string) => {
    const client = createClient(app);
    const start = await startSso(client, { email });
    const callback = await authorizeAtDevProvider(
      client,
      start.data.url,
      { name, email, emailVerified: true },
      SSO_CALLBACK,
    );
    return { client, answer: await visitCallback(client, callback) };
  };
  const membersOf = (organizationId: string, userId: string) =>
    app.db
      .selectFrom("member")
      .select(["role"])
      .where("organizationId", "=", organizationId)
      .where("userId", "=", userId)
      .execute();

  it("answers discovery by e-mail, domain or organization slug with the IdP's URL, with state and PKCE", async () => {
    for (const body of [
      { email: `jane@${names.domain}` },
      { domain: names.domain.toUpperCase() },
      { organizationSlug: organization.slug },
    ]) {
      const response = await startSso(createClient(app), body);
      expect(response.status).toBe(200);
      expect(response.data.redirect).toBe(true);
      const url = new URL(response.data.url);
      expect(`${url.origin}${url.pathname}`).toBe(`${app.config.baseUrl}/dev/oidc/auth`);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({
        client_id: "atrium-sso",
        response_type: "code",
        redirect_uri: `${app.config.baseUrl}${SSO_CALLBACK}${names.providerId}`,
        code_challenge_method: "S256",
      });
      expect(url.searchParams.get("state")).toMatch(/^.{32,}$/);
      expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    }
  });

  it("refuses a provider whose domain is not verified yet, and a domain no organization serves", async () => {
    const other = uniqueSsoNames("unproven");
    const someone = await createVerifiedUser(app, { label: "unproven" });
    const own = await createOrganizationWithOwner(someone, "Unproven");
    expect((await registerDevProvider(app, someone.client, { ...other, organizationId: own.id })).status).toBe(200);
    await expectError(
      await startSso(createClient(app), { domain: other.domain }),
      401,
      "Provider domain has not been verified",
    );
    await expectError(
      await startSso(createClient(app), { organizationSlug: own.slug }),
      401,
      "Provider domain has not been verified",
    );
    await expectError(
      await startSso(createClient(app), { email: "who@nobody.example.test" }),
      404,
      "No provider found for the issuer",
    );
  });

  it("signs a new person in with real HTTP, verified by the domain, as a member; later sign-ins keep one membership", async () => {
    const email = `jane.${randomBytes(4).toString("hex")}@${names.domain}`;
    const signIn = async () => {
      const client = createClient(app);
      const start = await startSso(client, { email });
      expect(start.status).toBe(200);
      // The IdP does not vouch for the address: the organization's verified domain does.
      const callback = await authorizeAtDevProvider(
        client,
        start.data.url,
        { name: "Jane SSO", email, emailVerified: false },
        SSO_CALLBACK,
      );
      const answer = await visitCallback(client, callback);
      expect(answer.status).toBe(302);
      expect(new URL(locationOf(answer), app.config.baseUrl).pathname).toBe("/dashboard");
      return client;
    };

    const client = await signIn();
    const session = await getSession(client);
    if (!session) throw new Error("the SSO sign-in made no session");
    expect(session.user).toMatchObject({ email, name: "Jane SSO", emailVerified: true });
    expect(await membersOf(organization.id, session.user.id)).toEqual([{ role: "member" }]);
    const added = await app.db
      .selectFrom("audit_event")
      .select(["actor_id", "target_id", "details"])
      .where("action", "=", "member.added")
      .where("organization_id", "=", organization.id)
      .where("target_id", "=", session.user.id)
      .execute();
    expect(added).toEqual([
      {
        actor_id: session.user.id,
        target_id: session.user.id,
        details: JSON.stringify({ role: "member", providerId: names.providerId }),
      },
    ]);
    const accounts = await app.db
      .selectFrom("account")
      .select("providerId")
      .where("userId", "=", session.user.id)
      .execute();
    expect(accounts).toEqual([{ providerId: names.providerId }]);

    const again = await signIn();
    expect((await getSession(again))?.user.id).toBe(session.user.id);
    expect(await membersOf(organization.id, session.user.id)).toEqual([{ role: "member" }]);
  });

  it("encrypts the client secret; reads a plain one until it changes, an undecryptable one as none", async () => {
    const clientSecret = app.services.devIdentity!.ssoClient.clientSecret;
    const storedConfig = async () =>
      (
        await app.db
          .selectFrom("ssoProvider")
          .select("oidcConfig")
          .where("providerId", "=", names.providerId)
          .executeTakeFirstOrThrow()
      ).oidcConfig ?? "";
    expect(await storedConfig()).not.toContain(clientSecret);
    // A row as it was stored before secrets were encrypted.
    const { clientSecretEncrypted, ...plain } = JSON.parse(await storedConfig()) as Record<string, unknown>;
    expect(clientSecretEncrypted).toEqual(expect.any(String));
    await app.db
      .updateTable("ssoProvider")
      .set({ oidcConfig: JSON.stringify({ ...plain, clientSecret }) })
      .where("providerId", "=", names.providerId)
      .execute();

    const email = `plain.${randomBytes(4).toString("hex")}@${names.domain}`;
    const { client, answer } = await throughProvider(email, "Plain Secret");
    expect(new URL(locationOf(answer), app.config.baseUrl).pathname).toBe("/dashboard");
    expect((await getSession(client))?.user.email).toBe(email);

    const changed = await owner.client.post("/api/auth/sso/update-provider", {
      providerId: names.providerId,
      oidcConfig: { clientId: "atrium-sso" },
    });
    expect(changed.status).toBe(200);
    expect(await storedConfig()).not.toContain(clientSecret);
    expect(JSON.parse(await storedConfig())).toMatchObject({ clientSecretEncrypted: expect.any(String) });
    const again = await throughProvider(email, "Plain Secret");
    expect((await getSession(again.client))?.user.email).toBe(email);

    // Encrypted with another auth secret: read without a secret, so sign-ins fail until an owner enters it again.
    await app.db
      .updateTable("ssoProvider")
      .set({ oidcConfig: JSON.stringify({ ...plain, clientSecretEncrypted: "ab".repeat(48) }) })
      .where("providerId", "=", names.providerId)
      .execute();
    const unreadable = await throughProvider(email, "Plain Secret");
    expect(new URL(locationOf(unreadable.answer), app.config.baseUrl).pathname).toBe("/auth/error");
    expect(await getSession(unreadable.client)).toBeNull();
    const entered = await owner.client.post("/api/auth/sso/update-provider", {
      providerId: names.providerId,
      oidcConfig: { clientSecret },
    });
    expect(entered.status).toBe(200);
    expect((await getSession((await throughProvider(email, "Plain Secret")).client))?.user.email).toBe(email);
  });

  it("counts the plan's seats: a full organization sends the person to the error page, a freed seat lets them in", async () => {
    const own = uniqueSsoNames("seats");
    const founder = await createVerifiedUser(app, { label: "founder" });
    const full = await createOrganizationWithOwner(founder, "Full");
    expect((await registerDevProvider(app, founder.client, { ...own, organizationId: full.id })).status).toBe(200);
    expect((await verifyProviderDomain(founder.client, dns, own.providerId)).status).toBe(200);
    // The free plan's 10 seats: the owner and 9 pending invitations.
    const invitations: string[] = [];
    for (let index = 0; index < 9; index += 1) {
      const invited = await founder.client.post("/api/auth/organization/invite-member", {
        email: `invited${index}@elsewhere.example.test`,
        role: "member",
        organizationId: full.id,
      });
      expect(invited.status).toBe(200);
      invitations.push((invited.data as { id: string }).id);
    }
    const email = `seatless@${own.domain}`;
    const attempt = () => throughProvider(email, "Seatless");

    const refused = await attempt();
    expect(refused.answer.status).toBe(302);
    const errorPage = new URL(locationOf(refused.answer), app.config.baseUrl);
    expect([errorPage.pathname, errorPage.searchParams.get("error")]).toEqual(["/auth/error", "PLAN_LIMIT_REACHED"]);
    expect(await getSession(refused.client)).toBeNull();
    // Refused inside the sign-in's transaction: no account and no session are left behind.
    expect(await app.db.selectFrom("user").select("id").where("email", "=", email).execute()).toEqual([]);

    const canceled = await founder.client.post("/api/auth/organization/cancel-invitation", {
      invitationId: invitations[0],
    });
    expect(canceled.status).toBe(200);
    const admitted = await attempt();
    expect(new URL(locationOf(admitted.answer), app.config.baseUrl).pathname).toBe("/dashboard");
    const user = await app.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    expect(await membersOf(full.id, user.id)).toEqual([{ role: "member" }]);
    const sessions = await app.db.selectFrom("session").select("id").where("userId", "=", user.id).execute();
    expect(sessions).toHaveLength(1);
  });

  it("creates nobody for an address outside the provider's domain, and signs no one already known into it", async () => {
    const outsider = `mallory.${randomBytes(4).toString("hex")}@elsewhere.example.test`;
    const known = await createVerifiedUser(app, { label: "known" });
    for (const [email, name] of [
      [outsider, "Mallory"],
      [known.email, "Known"],
    ] as const) {
      const client = createClient(app);
      const start = await startSso(client, { domain: names.domain });
      expect(start.status).toBe(200);
      // The IdP vouches for the address: the app still takes only addresses on the provider's domain.
      const callback = await authorizeAtDevProvider(
        client,
        start.data.url,
        { name, email, emailVerified: true },
        SSO_CALLBACK,
      );
      const answer = await visitCallback(client, callback);
      expect(answer.status).toBe(302);
      const errorPage = new URL(locationOf(answer), app.config.baseUrl);
      expect(errorPage.pathname).toBe("/auth/error");
      expect(await getSession(client)).toBeNull();
    }
    expect(await app.db.selectFrom("user").select("id").where("email", "=", outsider).execute()).toEqual([]);
    const knownAccounts = await app.db
      .selectFrom("account")
      .innerJoin("user", "user.id", "account.userId")
      .select("account.providerId")
      .where("user.email", "=", known.email)
      .execute();
    expect(knownAccounts).toEqual([{ providerId: "credential" }]);
  });

  it("refuses the callback once the provider's domain is no longer verified", async () => {
    const client = createClient(app);
    const start = await startSso(client, { domain: names.domain });
    expect(start.status).toBe(200);
    const callback = await authorizeAtDevProvider(
      client,
      start.data.url,
      { name: "Late", email: `late@${names.domain}`, emailVerified: true },
      SSO_CALLBACK,
    );
    await app.db
      .updateTable("ssoProvider")
      .set({ domainVerified: 0 })
      .where("providerId", "=", names.providerId)
      .execute();
    try {
      const answer = await visitCallback(client, callback);
      expect(answer.status).toBeGreaterThanOrEqual(300);
      expect(await getSession(client)).toBeNull();
      expect(
        await app.db.selectFrom("user").select("id").where("email", "=", `late@${names.domain}`).execute(),
      ).toEqual([]);
    } finally {
      await app.db
        .updateTable("ssoProvider")
        .set({ domainVerified: 1 })
        .where("providerId", "=", names.providerId)
        .execute();
    }
  });

  describe("while the organization requires SSO", () => {
    let passwordUser: TestUser;
    let elsewhere: TestUser;

    beforeAll(async () => {
      passwordUser = await createVerifiedUser(app, { label: "legacy", email: `legacy@${names.domain}` });
      elsewhere = await createVerifiedUser(app, { label: "elsewhere" });
      // The connection's test: someone signed in through it.
      const tester = await throughProvider(`tester.${randomBytes(4).toString("hex")}@${names.domain}`, "Tester");
      expect(await getSession(tester.client)).not.toBeNull();
      const turnedOn = await owner.client.request(`/api/organizations/${organization.id}/security`, {
        method: "PATCH",
        json: { requireSso: true },
      });
      expect(turnedOn.status).toBe(200);
      expect(turnedOn.data).toMatchObject({ requireSso: true, hasVerifiedSsoProvider: true, requireTwoFactor: false });
    });

    it("answers password sign-in and sign-up on the domain with 403 SSO_REQUIRED and the way to SSO", async () => {
      const signIn = await createClient(app).post("/api/auth/sign-in/email", {
        email: passwordUser.email,
        password: passwordUser.input.password,
      });
      const refused = await expectError(signIn, 403, SSO_REQUIRED);
      expect(refused).toMatchObject({
        code: "SSO_REQUIRED",
        details: {
          organizationSlug: organization.slug,
          organizationName: "Acme",
          signIn: { method: "POST", path: "/api/auth/sign-in/sso", body: { organizationSlug: organization.slug } },
        },
      });
      await expectError(
        await createClient(app).post("/api/auth/sign-in/username", {
          username: passwordUser.username,
          password: passwordUser.input.password,
        }),
        403,
        SSO_REQUIRED,
      );
      const newcomer = buildUser({ email: `newcomer@${names.domain.toUpperCase()}` });
      await expectError(await createClient(app).post("/api/auth/sign-up/email", newcomer), 403, SSO_REQUIRED);
      expect(
        await app.db.selectFrom("user").select("id").where("email", "=", newcomer.email.toLowerCase()).execute(),
      ).toEqual([]);
    });

    it("leaves other domains alone", async () => {
      const response = await createClient(app).post("/api/auth/sign-in/email", {
        email: elsewhere.email,
        password: elsewhere.input.password,
      });
      expect(response.status).toBe(200);
    });

    it("keeps the owners' break-glass path: password plus their authenticator app, never the password alone", async () => {
      await expectError(
        await createClient(app).post("/api/auth/sign-in/email", { email: owner.email, password: owner.input.password }),
        403,
        SSO_REQUIRED,
      );
      const enabled = await owner.client.post("/api/auth/two-factor/enable", { password: owner.input.password });
      expect(enabled.status).toBe(200);
      const { totpURI } = enabled.data as { totpURI: string };
      expect(
        (await owner.client.post("/api/auth/two-factor/verify-totp", { code: await totpCode(totpURI) })).status,
      ).toBe(200);
      const client = createClient(app);
      const first = await client.post("/api/auth/sign-in/email", {
        email: owner.email,
        password: owner.input.password,
      });
      expect({ status: first.status, data: first.data }).toEqual({
        status: 200,
        data: { twoFactorRedirect: true, twoFactorMethods: ["totp"] },
      });
      expect(await getSession(client)).toBeNull();
      expect((await client.post("/api/auth/two-factor/verify-totp", { code: await totpCode(totpURI, 1) })).status).toBe(
        200,
      );
      expect((await getSession(client))?.user.email).toBe(owner.email);
    });

    it("cannot be turned on before a verified provider signed someone in since it last changed", async () => {
      const own = uniqueSsoNames("untested");
      const founder = await createVerifiedUser(app, { label: "untested" });
      const untested = await createOrganizationWithOwner(founder, "Untested");
      expect((await registerDevProvider(app, founder.client, { ...own, organizationId: untested.id })).status).toBe(
        200,
      );
      expect((await verifyProviderDomain(founder.client, dns, own.providerId)).status).toBe(200);
      const setRequireSso = (on: boolean) =>
        founder.client.request(`/api/organizations/${untested.id}/security`, {
          method: "PATCH",
          json: { requireSso: on },
        });
      const firstSignInAt = async () =>
        ((await founder.client.get(`/api/organizations/${untested.id}/sso`)).data as OrganizationSso).providers[0]
          ?.firstSignInAt;
      const NOT_TESTED = "Sign in through a verified SSO provider once, as a test, before requiring SSO";

      expect(await firstSignInAt()).toBeNull();
      expect((await expectError(await setRequireSso(true), 409, NOT_TESTED)).code).toBe("SSO_SIGN_IN_TEST_REQUIRED");
      const before = Date.now();
      const tester = await throughProvider(`tester@${own.domain}`, "Tester");
      expect(await getSession(tester.client)).not.toBeNull();
      const tested = await firstSignInAt();
      expect(Date.parse(tested ?? "")).toBeGreaterThanOrEqual(before - 1_000);
      // Later sign-ins keep the first one's time.
      await throughProvider(`tester@${own.domain}`, "Tester");
      expect(await firstSignInAt()).toBe(tested);
      const turnedOn = await setRequireSso(true);
      expect({ status: turnedOn.status, requireSso: turnedOn.data.requireSso }).toEqual({
        status: 200,
        requireSso: true,
      });

      // A change of the provider asks for a new test; the policy already on stays on.
      const changed = await founder.client.post("/api/auth/sso/update-provider", {
        providerId: own.providerId,
        oidcConfig: { scopes: ["openid", "email", "profile"] },
      });
      expect(changed.status).toBe(200);
      expect(await firstSignInAt()).toBeNull();
      expect((await setRequireSso(true)).status).toBe(200);
      expect((await setRequireSso(false)).status).toBe(200);
      await expectError(await setRequireSso(true), 409, NOT_TESTED);
      await throughProvider(`tester@${own.domain}`, "Tester");
      expect((await setRequireSso(true)).status).toBe(200);
    });

    it("cannot be required without a verified provider", async () => {
      const someone = await createVerifiedUser(app, { label: "early" });
      const own = await createOrganizationWithOwner(someone, "Early");
      const refused = await someone.client.request(`/api/organizations/${own.id}/security`, {
        method: "PATCH",
        json: { requireSso: true },
      });
      expect((await expectError(refused, 400, "Verify the domain of an SSO provider before requiring SSO")).code).toBe(
        "SSO_VERIFIED_PROVIDER_REQUIRED",
      );
    });
  });
});

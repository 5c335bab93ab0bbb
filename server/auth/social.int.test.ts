import { randomBytes } from "node:crypto";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { FRESH_AUTHENTICATION_REQUIRED_MESSAGE } from "../../common/error-codes";
import { createLogger } from "../logger";
import { createDevIdentityProvider, devIdentityRoutes } from "../modules/dev-identity";
import {
  authorizeAtDevProvider,
  locationOf,
  signInWithDevProvider,
  startDevSignIn,
  visitCallback,
  type DevIdentityInput,
} from "../test/dev-identity";
import { buildUser, createVerifiedUser, extractToken, getSession, readLatestMail, signUp } from "../test/factories";
import { createClient, expectError, type TestClient } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

const identity = (overrides: Partial<DevIdentityInput> = {}): DevIdentityInput => ({
  name: "Social Person",
  email: `social.${randomBytes(5).toString("hex")}@example.test`,
  emailVerified: true,
  ...overrides,
});

describe("social sign-in through the development identity provider", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ listen: true, env: { DEV_IDENTITY_PROVIDER: "true" } });
  });
  afterAll(async () => {
    await app.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The `?error=` of a redirect to the app's sign-in error page. */
  const errorOf = (response: Response) => {
    const url = new URL(locationOf(response), app.config.baseUrl);
    expect(url.pathname).toBe("/auth/error");
    return url.searchParams.get("error");
  };
  const accountsOf = (userId: string) =>
    app.db
      .selectFrom("account")
      .select(["providerId", "email", "password"])
      .where("userId", "=", userId)
      .orderBy("providerId")
      .execute();
  const userByEmail = (email: string) =>
    app.db.selectFrom("user").selectAll().where("email", "=", email).executeTakeFirst();

  it("answers POST /sign-in/social with the provider's authorization URL, carrying state, an S256 PKCE challenge and a nonce", async () => {
    const response = await createClient(app).post("/api/auth/sign-in/social", { provider: "dev", callbackURL: "/" });
    expect(response.status).toBe(200);
    expect(response.data.redirect).toBe(true);
    const url = new URL(response.data.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${app.config.baseUrl}/dev/oidc/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: "atrium",
      response_type: "code",
      redirect_uri: `${app.config.baseUrl}/api/auth/callback/dev`,
      scope: "openid email profile",
      code_challenge_method: "S256",
      prompt: "login",
    });
    expect(url.searchParams.get("state")).toMatch(/^.{32,}$/);
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("nonce")).toMatch(/^.{32,}$/);
  });

  it("serves a discovery document, and lists the provider by name in /api/meta", async () => {
    const client = createClient(app);
    const discovery = await client.get("/dev/oidc/.well-known/openid-configuration", { overHttp: true });
    expect(discovery.status).toBe(200);
    expect(discovery.data).toMatchObject({
      issuer: `${app.config.baseUrl}/dev/oidc`,
      authorization_endpoint: `${app.config.baseUrl}/dev/oidc/auth`,
      token_endpoint: `${app.config.baseUrl}/dev/oidc/token`,
      code_challenge_methods_supported: ["S256"],
    });
    expect((await client.get("/api/meta")).data.socialProviders).toEqual([
      { id: "dev", name: "Dev identity provider" },
    ]);
  });

  it("shows a login page that says it is for development, lists test identities and checks a made-up one", async () => {
    const client = createClient(app);
    const toLogin = await client.get(await startDevSignIn(client), { overHttp: true });
    const loginUrl = locationOf(toLogin);
    const page = await client.get(loginUrl, { overHttp: true });
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.data).toContain("For development only.");
    expect(page.data).toContain("Ada Lovelace");
    expect(page.data).toContain("e-mail not verified");

    const invalid = await client.request(`${loginUrl}/new-identity`, {
      method: "POST",
      body: "name=&email=not-an-address",
      contentType: "application/x-www-form-urlencoded",
      overHttp: true,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.data).toContain("Enter your name");
    expect(invalid.data).toContain("Enter a valid e-mail address");
    expect(invalid.data).toContain('value="not-an-address"');

    const unknown = await client.get(`${app.config.baseUrl}/dev/oidc/interaction/no-such-sign-in`, { overHttp: true });
    expect(unknown.status).toBe(410);
    expect(unknown.data).toContain("This sign-in is no longer in progress");
    expect(unknown.data).toContain(`href="${app.config.baseUrl}/sign-in"`);

    // A client the provider does not know (here: a foreign redirect URI) gets the provider's own page, never a redirect.
    const foreign = await client.get(
      `/dev/oidc/auth?client_id=atrium&response_type=code&scope=openid&redirect_uri=${encodeURIComponent("https://evil.example/")}`,
      {
        overHttp: true,
      },
    );
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get("location")).toBeNull();
    expect(foreign.data).toContain("redirect_uri did not match any of the client&#39;s registered redirect_uris");
    expect(foreign.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("signs a new identity up with its verified e-mail, sends it to newUserCallbackURL, and signs it back in to the same account", async () => {
    const person = identity({ name: "Ada Newcomer" });
    const client = createClient(app);
    const signUpAnswer = await signInWithDevProvider(client, person, {
      callbackURL: "/dashboard",
      newUserCallbackURL: "/welcome",
    });
    expect(locationOf(signUpAnswer)).toBe("/welcome");
    const session = await getSession(client);
    expect(session?.user).toMatchObject({ email: person.email, name: "Ada Newcomer", emailVerified: true });
    expect(await accountsOf(session!.user.id)).toEqual([{ providerId: "dev", email: person.email, password: null }]);
    // The provider's access token is kept encrypted (oidc-provider issues 43-character base64url tokens).
    const { accessToken } = await app.db
      .selectFrom("account")
      .select("accessToken")
      .where("userId", "=", session!.user.id)
      .executeTakeFirstOrThrow();
    expect(accessToken).toMatch(/^[0-9a-f]{100,}$/);

    const returning = createClient(app);
    expect(
      locationOf(
        await signInWithDevProvider(returning, person, { callbackURL: "/dashboard", newUserCallbackURL: "/welcome" }),
      ),
    ).toBe("/dashboard");
    expect((await getSession(returning))?.user.id).toBe(session!.user.id);
    expect(await app.db.selectFrom("user").select("id").where("email", "=", person.email).execute()).toHaveLength(1);
  });

  it("signs a new identity with an unverified e-mail up without a session: a confirmation mail first, as for a password sign-up", async () => {
    const person = identity({ emailVerified: false });
    const client = createClient(app);
    expect(errorOf(await signInWithDevProvider(client, person))).toBe("email_not_verified");
    expect(await getSession(client)).toBeNull();
    const user = await userByEmail(person.email);
    expect(Boolean(user?.emailVerified)).toBe(false);
    const mail = await readLatestMail(app, person.email, (candidate) =>
      candidate.subject.startsWith("Verify your e-mail"),
    );
    expect(mail.text).toContain("/api/auth/verify-email?token=");
  });

  it("answers two simultaneous first sign-ins of the same identity with redirects, and one account", async () => {
    const person = identity();
    const browsers = [createClient(app), createClient(app)];
    const callbacks = await Promise.all(
      browsers.map(async (client) => authorizeAtDevProvider(client, await startDevSignIn(client), person)),
    );
    const answers = await Promise.all(browsers.map((client, index) => visitCallback(client, callbacks[index]!)));
    for (const answer of answers) expect(answer.status).toBe(302);
    expect(answers.map((answer) => locationOf(answer))).toContain("/");
    expect(await app.db.selectFrom("user").select("id").where("email", "=", person.email).execute()).toHaveLength(1);
  });

  describe("linking to an existing account", () => {
    it("links automatically when the provider verified the same e-mail and the account's e-mail is verified", async () => {
      const owner = await createVerifiedUser(app);
      const client = createClient(app);
      expect(locationOf(await signInWithDevProvider(client, identity({ email: owner.email })))).toBe("/");
      expect((await getSession(client))?.user.id).toBe(owner.id);
      expect((await accountsOf(owner.id)).map((account) => account.providerId)).toEqual(["credential", "dev"]);
    });

    it("refuses when the provider does not vouch for the e-mail, as for an address without an account, and leaves the account as it was", async () => {
      const owner = await createVerifiedUser(app);
      const client = createClient(app);
      expect(errorOf(await signInWithDevProvider(client, identity({ email: owner.email, emailVerified: false })))).toBe(
        "email_not_verified",
      );
      expect(await getSession(client)).toBeNull();
      expect((await accountsOf(owner.id)).map((account) => account.providerId)).toEqual(["credential"]);
    });

    it("refuses when the account's e-mail is unverified: the pre-registered account keeps its password and gains no session or identity", async () => {
      const { input, userId } = await signUp(app);
      const client = createClient(app);
      expect(errorOf(await signInWithDevProvider(client, identity({ email: input.email })))).toBe("account_not_linked");
      expect(await getSession(client)).toBeNull();
      expect(Boolean((await userByEmail(input.email))?.emailVerified)).toBe(false);
      const accounts = await accountsOf(userId);
      expect(accounts.map((account) => account.providerId)).toEqual(["credential"]);
      expect(accounts[0]?.password).toBeTruthy();
      expect(await app.db.selectFrom("session").select("id").where("userId", "=", userId).execute()).toEqual([]);
    });

    it("never marks an e-mail verified on the word of a provider that did not verify it", async () => {
      const { input, userId } = await signUp(app);
      expect(
        errorOf(await signInWithDevProvider(createClient(app), identity({ email: input.email, emailVerified: false }))),
      ).toBe("email_not_verified");
      expect(Boolean((await userByEmail(input.email))?.emailVerified)).toBe(false);
      expect((await accountsOf(userId)).map((account) => account.providerId)).toEqual(["credential"]);
    });
  });

  describe("state and PKCE", () => {
    it("accepts a callback within the state's 10 minutes and refuses one after them, on the app's error page", async () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const inTime = createClient(app);
      const inTimeUrl = await startDevSignIn(inTime);
      vi.setSystemTime(Date.now() + 9 * 60_000 + 50_000);
      expect(locationOf(await visitCallback(inTime, await authorizeAtDevProvider(inTime, inTimeUrl, identity())))).toBe(
        "/",
      );

      const late = createClient(app);
      const lateUrl = await startDevSignIn(late);
      vi.setSystemTime(Date.now() + 10 * 60_000 + 1_000);
      const answer = await visitCallback(late, await authorizeAtDevProvider(late, lateUrl, identity()));
      expect(errorOf(answer)).toBe("state_mismatch");
      expect(await getSession(late)).toBeNull();
    });

    it("refuses a tampered state, and a callback from a browser that did not start the sign-in", async () => {
      const client = createClient(app);
      const callback = new URL(await authorizeAtDevProvider(client, await startDevSignIn(client), identity()));
      const tampered = new URL(callback);
      tampered.searchParams.set("state", `${callback.searchParams.get("state")}x`);
      expect(errorOf(await visitCallback(client, tampered.toString()))).toBe("state_mismatch");

      const stranger = createClient(app);
      expect(errorOf(await visitCallback(stranger, callback.toString()))).toBe("state_mismatch");
      expect(await getSession(stranger)).toBeNull();
    });

    it("refuses a replayed callback: the state is spent, and the code too even with the old state cookie", async () => {
      const client = createClient(app);
      const callback = await authorizeAtDevProvider(client, await startDevSignIn(client), identity());
      const stateCookie = client.jar.get("better-auth.oauth_state");
      expect(stateCookie).toBeTruthy();
      expect(locationOf(await visitCallback(client, callback))).toBe("/");

      const replay = createClient(app);
      expect(errorOf(await visitCallback(replay, callback))).toBe("state_mismatch");
      replay.jar.set("better-auth.oauth_state", stateCookie!);
      expect(errorOf(await visitCallback(replay, callback))).toBe("invalid_code");
      expect(await getSession(replay)).toBeNull();
    });

    it("has the provider refuse an authorization request without PKCE and a code exchange with the wrong verifier", async () => {
      const client = createClient(app);
      const withoutPkce = new URL(await startDevSignIn(client));
      withoutPkce.searchParams.delete("code_challenge");
      withoutPkce.searchParams.delete("code_challenge_method");
      const refused = new URL(locationOf(await client.get(withoutPkce.toString(), { overHttp: true })));
      expect(`${refused.origin}${refused.pathname}`).toBe(`${app.config.baseUrl}/api/auth/callback/dev`);
      expect(refused.searchParams.get("error")).toBe("invalid_request");

      const code = new URL(
        await authorizeAtDevProvider(client, await startDevSignIn(client), identity()),
      ).searchParams.get("code")!;
      const dev = app.config.socialProviders.find((provider) => provider.id === "dev")!;
      const exchange = await client.request("/dev/oidc/token", {
        method: "POST",
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: `${app.config.baseUrl}/api/auth/callback/dev`,
          code_verifier: "a".repeat(64),
        }).toString(),
        contentType: "application/x-www-form-urlencoded",
        headers: { authorization: `Basic ${Buffer.from(`${dev.clientId}:${dev.clientSecret}`).toString("base64")}` },
        // A server-to-server call, as the app makes it: no browser Origin.
        origin: null,
        overHttp: true,
      });
      expect(exchange.status).toBe(400);
      expect(exchange.data).toMatchObject({ error: "invalid_grant" });
    });

    it("ends a sign-in cancelled at the provider on the app's error page", async () => {
      const client = createClient(app);
      expect(
        errorOf(
          await visitCallback(client, await authorizeAtDevProvider(client, await startDevSignIn(client), "cancel")),
        ),
      ).toBe("access_denied");
    });
  });

  it("refuses redirect targets outside the app's origin", async () => {
    const client = createClient(app);
    for (const [field, message] of [
      ["callbackURL", "Invalid callbackURL"],
      ["errorCallbackURL", "Invalid errorCallbackURL"],
      ["newUserCallbackURL", "Invalid newUserCallbackURL"],
    ] as const) {
      for (const target of ["https://evil.example/steal", "//evil.example/steal"]) {
        await expectError(
          await client.post("/api/auth/sign-in/social", { provider: "dev", callbackURL: "/", [field]: target }),
          403,
          message,
        );
      }
    }
    const user = await createVerifiedUser(app);
    await expectError(
      await user.client.post("/api/auth/link-social", { provider: "dev", callbackURL: "https://evil.example/" }),
      403,
      "Invalid callbackURL",
    );
  });

  it("keeps a banned user out through the provider too", async () => {
    const person = identity();
    const first = createClient(app);
    expect(locationOf(await signInWithDevProvider(first, person))).toBe("/");
    const userId = (await getSession(first))!.user.id;
    await app.db
      .updateTable("user")
      .set({ banned: app.dialect === "sqlite" ? 1 : true, banReason: "spam" })
      .where("id", "=", userId)
      .execute();

    const again = createClient(app);
    expect(errorOf(await signInWithDevProvider(again, person))).toBe("BANNED_USER");
    expect(await getSession(again)).toBeNull();
  });

  describe("sign-in methods in account settings", () => {
    const linkDev = async (client: TestClient, person: DevIdentityInput) =>
      visitCallback(
        client,
        await authorizeAtDevProvider(
          client,
          await startDevSignIn(client, { callbackURL: "/account/sign-in-methods" }, "/api/auth/link-social"),
          person,
        ),
      );

    it("links the provider to a signed-in account, lists it with the provider's e-mail, and unlinks it while a password remains", async () => {
      const user = await createVerifiedUser(app);
      expect(locationOf(await linkDev(user.client, identity({ email: user.email })))).toBe("/account/sign-in-methods");
      const listed = await user.client.get("/api/auth/list-accounts");
      expect(listed.status).toBe(200);
      const dev = (listed.data as Array<{ id: string; providerId: string; email: string | null }>).find(
        (account) => account.providerId === "dev",
      );
      expect(dev?.email).toBe(user.email);

      expect((await user.client.post("/api/auth/unlink-account", { accountId: dev!.id })).status).toBe(200);
      const remaining = (await user.client.get("/api/auth/list-accounts")).data as Array<{
        id: string;
        providerId: string;
      }>;
      expect(remaining.map((account) => account.providerId)).toEqual(["credential"]);
      await expectError(
        await user.client.post("/api/auth/unlink-account", { accountId: remaining[0]!.id }),
        400,
        "You can't unlink your last account",
      );
    });

    it("refuses to link an identity with another e-mail or an unverified one, one identity after the other in the same browser", async () => {
      const user = await createVerifiedUser(app);
      expect(errorOf(await linkDev(user.client, identity()))).toBe("email_does_not_match");
      expect(errorOf(await linkDev(user.client, identity({ email: user.email, emailVerified: false })))).toBe(
        "unable_to_link_account",
      );
      expect((await accountsOf(user.id)).map((account) => account.providerId)).toEqual(["credential"]);
      expect(locationOf(await linkDev(user.client, identity({ email: user.email })))).toBe("/account/sign-in-methods");
    });

    it("deletes an account without a password on a sign-in less than 10 minutes old; an account with a password must give it", async () => {
      const person = identity();
      const client = createClient(app);
      await signInWithDevProvider(client, person);
      const withPassword = await createVerifiedUser(app);
      await expectError(
        await withPassword.client.post("/api/auth/delete-user", {}),
        400,
        "Enter your password to delete your account",
      );

      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 11 * 60_000);
      // Without a password or an authenticator app, the way to re-check is a new sign-in through the provider.
      const refused = await expectError(
        await client.post("/api/auth/delete-user", {}),
        403,
        FRESH_AUTHENTICATION_REQUIRED_MESSAGE,
      );
      expect(refused).toMatchObject({ code: "FRESH_AUTHENTICATION_REQUIRED", details: { providers: ["dev"] } });
      vi.useRealTimers();
      expect((await client.post("/api/auth/delete-user", {})).status).toBe(200);
      expect(await userByEmail(person.email)).toBeUndefined();
    });

    it("lets someone who signed up through the provider set a password through a mailed link, then sign in with it", async () => {
      const person = identity();
      const client = createClient(app);
      await signInWithDevProvider(client, person);
      const userId = (await getSession(client))!.user.id;
      expect(
        (await client.post("/api/auth/request-password-reset", { email: person.email, redirectTo: "/reset-password" }))
          .status,
      ).toBe(200);
      const mail = await readLatestMail(app, person.email, (candidate) =>
        candidate.subject.startsWith("Set a password"),
      );
      const token = extractToken(/https?:\/\/\S+/.exec(mail.text)![0]);
      const password = buildUser().password;
      expect((await createClient(app).post("/api/auth/reset-password", { newPassword: password, token })).status).toBe(
        200,
      );
      expect((await accountsOf(userId)).map((account) => account.providerId)).toEqual(["credential", "dev"]);
      expect((await createClient(app).post("/api/auth/sign-in/email", { email: person.email, password })).status).toBe(
        200,
      );
    });
  });
});

describe("social sign-in through any OpenID Connect provider (OIDC_ISSUER)", () => {
  let app: TestApp;
  let closeProvider: () => void;

  beforeAll(async () => {
    // An identity provider of its own, on its own port, that knows the app as a client.
    const served: { app?: Hono } = {};
    const server = serve({
      fetch: (request, env) => served.app?.fetch(request, env) ?? new Response("starting", { status: 503 }),
      port: 0,
      hostname: "127.0.0.1",
    });
    await new Promise((resolve) => server.once("listening", resolve));
    const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    closeProvider = () => server.close();
    app = await createTestApp({
      listen: true,
      env: {
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: "acme-app",
        OIDC_CLIENT_SECRET: "acme-secret",
        OIDC_NAME: "Acme SSO",
      },
    });
    const devIdentity = await createDevIdentityProvider({
      issuer,
      client: {
        clientId: "acme-app",
        clientSecret: "acme-secret",
        redirectUri: `${app.config.baseUrl}/api/auth/callback/oidc`,
      },
      ssoClient: {
        clientId: "acme-sso",
        clientSecret: "acme-sso-secret",
        callbackPrefix: `${app.config.baseUrl}/api/auth/sso/callback/`,
      },
      signInUrl: `${app.config.baseUrl}/sign-in`,
      cookieSecret: "acme-cookie-secret",
      logger: createLogger("silent"),
      isProduction: false,
    });
    served.app = new Hono().route("/", devIdentityRoutes({ devIdentity }));
  });
  afterAll(async () => {
    await app.close();
    closeProvider();
  });

  it("offers the provider under its configured name and signs up through it, found by discovery", async () => {
    const client = createClient(app);
    expect((await client.get("/api/meta")).data.socialProviders).toEqual([{ id: "oidc", name: "Acme SSO" }]);
    const person = identity();
    expect(locationOf(await signInWithDevProvider(client, person, { provider: "oidc" }))).toBe("/");
    const session = await getSession(client);
    expect(session?.user).toMatchObject({ email: person.email, emailVerified: true });
    expect(
      await app.db
        .selectFrom("account")
        .select(["providerId", "email"])
        .where("userId", "=", session!.user.id)
        .execute(),
    ).toEqual([{ providerId: "oidc", email: person.email }]);
  });
});

describe("a configured OpenID Connect provider that does not answer", () => {
  let app: TestApp;

  beforeAll(async () => {
    // Nothing listens on the discard port: discovery fails at start and again on each try.
    app = await createTestApp({
      env: { OIDC_ISSUER: "http://127.0.0.1:9", OIDC_CLIENT_ID: "acme-app", OIDC_CLIENT_SECRET: "acme-secret" },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it("answers 503 with what to do, not 'Provider not found'", async () => {
    const client = createClient(app);
    await expectError(
      await client.post("/api/auth/sign-in/social", { provider: "oidc", callbackURL: "/" }),
      503,
      "The sign-in provider does not answer. Try again in a moment, or sign in another way.",
    );
    await expectError(
      await client.post("/api/auth/sign-in/social", { provider: "nope", callbackURL: "/" }),
      404,
      "Provider not found",
    );
  });
});

describe("social sign-in through GitHub and Google", () => {
  let withGithub: TestApp;
  let withoutProviders: TestApp;

  beforeAll(async () => {
    [withGithub, withoutProviders] = await Promise.all([
      createTestApp({ env: { GITHUB_CLIENT_ID: "atrium-test-client", GITHUB_CLIENT_SECRET: "atrium-test-secret" } }),
      createTestApp(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([withGithub.close(), withoutProviders.close()]);
  });

  it("answers with the provider's authorize URL, carrying a state, for a configured provider", async () => {
    const response = await createClient(withGithub).post("/api/auth/sign-in/social", {
      provider: "github",
      callbackURL: "/",
    });
    expect(response.status).toBe(200);
    expect(response.data.redirect).toBe(true);
    const url = new URL(response.data.url);
    expect(`${url.origin}${url.pathname}`).toBe("https://github.com/login/oauth/authorize");
    expect(url.searchParams.get("client_id")).toBe("atrium-test-client");
    expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:3000/api/auth/callback/github");
    expect(url.searchParams.get("state")).toMatch(/.{16,}/);
  });

  it("refuses a provider that is not configured, and /api/meta lists only configured ones", async () => {
    const client = createClient(withoutProviders);
    await expectError(
      await client.post("/api/auth/sign-in/social", { provider: "github", callbackURL: "/" }),
      404,
      "Provider not found",
    );
    expect((await client.get("/api/meta")).data.socialProviders).toEqual([]);
    expect((await createClient(withGithub).get("/api/meta")).data.socialProviders).toEqual([
      { id: "github", name: "GitHub" },
    ]);
  });
});

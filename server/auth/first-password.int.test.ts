import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locationOf, signInWithDevProvider } from "../test/dev-identity";
import {
  createVerifiedUser,
  extractLink,
  extractToken,
  getSession,
  readLatestMail,
  signInOnNewClient,
} from "../test/factories";
import { createClient, expectError, type TestClient } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

const NEW_PASSWORD = "a-first-password-1";

describe("setting a first password with the mailed link", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ listen: true, env: { DEV_IDENTITY_PROVIDER: "true" } });
  });
  afterAll(async () => {
    await app.close();
  });

  /** Someone who signed up through the provider: signed in, no password. */
  async function providerUser(): Promise<{ email: string; client: TestClient }> {
    const email = `first.${randomBytes(5).toString("hex")}@example.test`;
    const client = createClient(app);
    const answer = await signInWithDevProvider(client, { name: "First Password", email, emailVerified: true });
    expect(locationOf(answer)).toBe("/");
    return { email, client };
  }

  /** "E-mail me a link to set a password": the link lands on /account/set-password with its token. */
  async function mailedToken(
    client: TestClient,
    email: string,
    subject = "Set a password for Atrium",
  ): Promise<string> {
    const asked = await client.post("/api/auth/request-password-reset", { email, redirectTo: "/account/set-password" });
    expect(asked.status).toBe(200);
    const mail = await readLatestMail(app, email, (candidate) => candidate.subject === subject);
    const landing = new URL(locationOf(await client.get(extractLink(mail))), app.config.baseUrl);
    expect(`${landing.origin}${landing.pathname}`).toBe(`${app.config.baseUrl}/account/set-password`);
    return extractToken(landing.toString());
  }

  it("sets the password and keeps the session that set it; the link works once", async () => {
    const { email, client } = await providerUser();
    const before = await getSession(client);
    const token = await mailedToken(client, email);

    const answer = await client.post("/api/account/first-password", { token, newPassword: NEW_PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ status: true });

    expect((await getSession(client))?.session.id).toBe(before?.session.id);
    const accounts = await app.db
      .selectFrom("account")
      .select("providerId")
      .where("userId", "=", before!.user.id)
      .orderBy("providerId")
      .execute();
    expect(accounts.map((account) => account.providerId)).toEqual(["credential", "dev"]);
    expect(await getSession(await signInOnNewClient(app, { email, password: NEW_PASSWORD }))).not.toBeNull();

    await expectError(
      await client.post("/api/account/first-password", { token, newPassword: "another-password-2" }),
      400,
      "Invalid token",
    );
  });

  it("refuses another person's link, and a made-up one, with 400 INVALID_TOKEN", async () => {
    const owner = await providerUser();
    const other = await providerUser();
    const token = await mailedToken(owner.client, owner.email);
    const refused = await expectError(
      await other.client.post("/api/account/first-password", { token, newPassword: NEW_PASSWORD }),
      400,
      "Invalid token",
    );
    expect(refused.code).toBe("INVALID_TOKEN");
    await expectError(
      await other.client.post("/api/account/first-password", { token: "not-a-real-token", newPassword: NEW_PASSWORD }),
      400,
      "Invalid token",
    );
    // The owner's link still works for the owner.
    expect((await owner.client.post("/api/account/first-password", { token, newPassword: NEW_PASSWORD })).status).toBe(
      200,
    );
  });

  it("answers 401 without a session, and 400 to a password that is too short", async () => {
    const { email, client } = await providerUser();
    const token = await mailedToken(client, email);
    await expectError(
      await createClient(app).post("/api/account/first-password", { token, newPassword: NEW_PASSWORD }),
      401,
      "Unauthorized",
    );
    await expectError(
      await client.post("/api/account/first-password", { token, newPassword: "short" }),
      400,
      "newPassword: Use at least 8 characters",
    );
  });

  it("refuses an account that has a password: a reset is the way to change it", async () => {
    const user = await createVerifiedUser(app);
    const token = await mailedToken(user.client, user.email, "Reset your Atrium password");
    await expectError(
      await user.client.post("/api/account/first-password", { token, newPassword: NEW_PASSWORD }),
      400,
      "User already has a password set",
    );
  });
});

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locationOf, signInWithDevProvider, type DevIdentityInput } from "../test/dev-identity";
import { createVerifiedUser, getSession, listMails, readLatestMail, signUp } from "../test/factories";
import { createClient } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

const unconfirmed = (email: string): DevIdentityInput => ({ name: "Someone", email, emailVerified: false });

describe("a sign-in through a provider that does not vouch for the e-mail", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ listen: true, env: { DEV_IDENTITY_PROVIDER: "true" } });
  });
  afterAll(async () => {
    await app.close();
  });

  const errorPage = "/auth/error?error=email_not_verified";
  /** The redirect's path and query, the same whatever the app's origin. */
  const answerOf = (response: Response) => {
    const url = new URL(locationOf(response), app.config.baseUrl);
    return `${url.pathname}${url.search}`;
  };
  const providersOf = async (userId: string) =>
    (await app.db.selectFrom("account").select("providerId").where("userId", "=", userId).execute()).map(
      (account) => account.providerId,
    );

  it("answers for an address without an account: the confirmation page, and a link to the address", async () => {
    const email = `nobody.${randomBytes(5).toString("hex")}@example.test`;
    const response = await signInWithDevProvider(createClient(app), unconfirmed(email));
    expect(response.status).toBe(302);
    expect(answerOf(response)).toBe(errorPage);
    const mail = await readLatestMail(app, email);
    expect(mail.subject).toBe("Verify your e-mail address for Atrium");
  });

  it("answers the same for the address of an existing account, which stays as it was; its owner is told", async () => {
    const owner = await createVerifiedUser(app);
    const client = createClient(app);
    const response = await signInWithDevProvider(client, unconfirmed(owner.email));
    expect(response.status).toBe(302);
    expect(answerOf(response)).toBe(errorPage);
    expect(await getSession(client)).toBeNull();
    expect(await providersOf(owner.id)).toEqual(["credential"]);
    const mail = await readLatestMail(app, owner.email, (candidate) => candidate.subject.startsWith("Someone tried"));
    expect(mail.subject).toBe("Someone tried to sign in to Atrium through Dev identity provider with your address");
    expect(mail.text).toContain(
      "Dev identity provider has not confirmed that the address is theirs, so it was not connected to your account.",
    );
    expect(mail.text).toContain(`Sign in: ${app.config.baseUrl}/sign-in`);
  });

  it("answers the same for an account whose own address is not verified yet, and verifies nothing", async () => {
    const { input, userId } = await signUp(app);
    const client = createClient(app);
    const response = await signInWithDevProvider(client, unconfirmed(input.email));
    expect(answerOf(response)).toBe(errorPage);
    expect(await getSession(client)).toBeNull();
    expect(await providersOf(userId)).toEqual(["credential"]);
    const user = await app.db.selectFrom("user").select("emailVerified").where("id", "=", userId).executeTakeFirst();
    expect(Boolean(user?.emailVerified)).toBe(false);
    const subjects = (await listMails(app, input.email)).map((mail) => mail.subject);
    expect(subjects).toContain("Someone tried to sign in to Atrium through Dev identity provider with your address");
  });

  it("keeps better-auth's answer when the provider vouches for the address of an unverified account", async () => {
    const { input } = await signUp(app);
    const response = await signInWithDevProvider(createClient(app), {
      ...unconfirmed(input.email),
      emailVerified: true,
    });
    expect(answerOf(response)).toBe("/auth/error?error=account_not_linked");
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import {
  buildUser,
  createVerifiedUser,
  extractLink,
  extractToken,
  getSession,
  listMails,
  readLatestMail,
  signInOnNewClient,
  signUp,
} from "../test/factories";
import { createClient, expectError, readJson } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp({ env: { TRUSTED_ORIGINS: "https://partner.example.test" } });
});

afterAll(async () => {
  await app?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

const ONE_HOUR_MS = 60 * 60 * 1000;

/** Moves `Date` (only) forward, as if the time had passed; timers and I/O keep running. */
function travelForward(ms: number): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + ms);
}

/** An error body without its request id, which differs from one request to the next (and tells nothing else). */
function withoutRequestId(body: object): object {
  const { requestId, ...rest } = body as { requestId?: unknown };
  expect(requestId).toEqual(expect.any(String));
  return rest;
}

describe("sign-up and e-mail verification", () => {
  test("sign-up stores the username in lowercase, copies displayUsername, signs nobody in and mails a verification link", async () => {
    const input = buildUser();
    const mixedCase = `Mixed.${input.username.toUpperCase()}`;
    const client = createClient(app);
    const response = await client.post("/api/auth/sign-up/email", { ...input, username: mixedCase });
    expect(response.status).toBe(200);
    const body = await readJson<{
      token: string | null;
      user: { email: string; emailVerified: boolean; username: string; displayUsername: string };
    }>(response);
    expect(body.token).toBeNull();
    expect(body.user).toMatchObject({
      email: input.email,
      emailVerified: false,
      username: mixedCase.toLowerCase(),
      displayUsername: mixedCase,
    });
    expect(client.jar.size).toBe(0);
    expect(await getSession(client)).toBeNull();

    const mail = await readLatestMail(app, input.email);
    expect(mail.subject).toBe("Verify your e-mail address for Atrium");
    const link = extractLink(mail);
    expect(link).toMatch(/^\/api\/auth\/verify-email\?token=/);

    const verified = await client.get(link);
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe("/email-verified?next=%2F");
    const session = await getSession(client);
    expect(session?.user).toMatchObject({ email: input.email, emailVerified: true, username: mixedCase.toLowerCase() });
  });

  test("a verification link that does not work lands on /email-verified with the reason", async () => {
    const landing = await createClient(app).get(
      "/api/auth/verify-email?token=not-a-real-token&callbackURL=%2Forganizations%2Fnew",
    );
    expect(landing.status).toBe(302);
    expect(landing.headers.get("location")).toBe("/email-verified?next=%2Forganizations%2Fnew&error=INVALID_TOKEN");
  });

  test("displayUsername given on sign-up is kept as given", async () => {
    const input = buildUser();
    const response = await createClient(app).post("/api/auth/sign-up/email", {
      ...input,
      displayUsername: "Shown Name",
    });
    expect(response.status).toBe(200);
    const body = await readJson<{ user: { username: string; displayUsername: string } }>(response);
    expect(body.user).toMatchObject({ username: input.username, displayUsername: "Shown Name" });
  });

  test("signing in before verifying answers 403 'email not verified' and sends a new verification mail, on e-mail and username sign-in", async () => {
    const { input } = await signUp(app);
    const before = (await listMails(app, input.email)).length;
    expect(before).toBe(1);

    const byEmail = await createClient(app).post("/api/auth/sign-in/email", {
      email: input.email,
      password: input.password,
    });
    await expectError(byEmail, 403, "email not verified");
    await readLatestMail(app, input.email, () => true);
    expect((await listMails(app, input.email)).length).toBe(2);

    const byUsername = await createClient(app).post("/api/auth/sign-in/username", {
      username: input.username,
      password: input.password,
    });
    await expectError(byUsername, 403, "email not verified");
    const mails = await listMails(app, input.email);
    expect(mails.length).toBe(3);
    expect(mails.every((mail) => mail.subject === "Verify your e-mail address for Atrium")).toBe(true);

    // The freshly sent link works.
    const client = createClient(app);
    expect((await client.get(extractLink(mails[0]!))).status).toBe(302);
    expect((await getSession(client))?.user.emailVerified).toBe(true);
  });

  test("a verification link works for 1 hour and stops working after it", async () => {
    const early = await signUp(app);
    const earlyLink = extractLink(await readLatestMail(app, early.input.email));
    const { input } = await signUp(app);
    const link = extractLink(await readLatestMail(app, input.email));

    travelForward(ONE_HOUR_MS - 60_000);
    const inTime = createClient(app);
    expect((await inTime.get(earlyLink)).status).toBe(302);
    expect((await getSession(inTime))?.user).toMatchObject({ email: early.input.email, emailVerified: true });

    travelForward(2 * 60_000);
    const client = createClient(app);
    const response = await client.get(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/email-verified?next=%2F&error=TOKEN_EXPIRED");
    expect(await getSession(client)).toBeNull();
    vi.useRealTimers();
    const signIn = await createClient(app).post("/api/auth/sign-in/email", {
      email: input.email,
      password: input.password,
    });
    expect(signIn.status).toBe(403);
  });

  test("passwords must be 8 to 128 characters", async () => {
    const tooShort = await createClient(app).post("/api/auth/sign-up/email", buildUser({ password: "a".repeat(7) }));
    await expectError(tooShort, 400, "Password too short");
    const tooLong = await createClient(app).post("/api/auth/sign-up/email", buildUser({ password: "a".repeat(129) }));
    await expectError(tooLong, 400, "Password too long");
    const shortest = await createClient(app).post("/api/auth/sign-up/email", buildUser({ password: "a".repeat(8) }));
    expect(shortest.status).toBe(200);
    const longest = await createClient(app).post("/api/auth/sign-up/email", buildUser({ password: "b".repeat(128) }));
    expect(longest.status).toBe(200);
  });

  test("send-verification-email mails a new link to an unverified address", async () => {
    const { input } = await signUp(app);
    const response = await createClient(app).post("/api/auth/send-verification-email", { email: input.email });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ status: true });
    expect((await listMails(app, input.email)).length).toBe(2);
  });
});

describe("sign-in", () => {
  test("sign-in with e-mail or username (any case) starts a session; sign-out ends it", async () => {
    const { input, client: first } = await createVerifiedUser(app);
    const byEmail = createClient(app);
    const response = await byEmail.post("/api/auth/sign-in/email", {
      email: input.email.toUpperCase(),
      password: input.password,
    });
    expect(response.status).toBe(200);
    expect((await getSession(byEmail))?.user.email).toBe(input.email);

    const byUsername = createClient(app);
    const usernameResponse = await byUsername.post("/api/auth/sign-in/username", {
      username: input.username.toUpperCase(),
      password: input.password,
    });
    expect(usernameResponse.status).toBe(200);
    const body = await readJson<{ token: string; user: { username: string } }>(usernameResponse);
    expect(body.user.username).toBe(input.username);
    expect(body.token).toEqual(expect.any(String));
    expect((await getSession(byUsername))?.user.email).toBe(input.email);

    const signOut = await byUsername.post("/api/auth/sign-out");
    expect(signOut.status).toBe(200);
    expect(await getSession(byUsername)).toBeNull();
    // Signing out one device leaves the others signed in.
    expect(await getSession(first)).not.toBeNull();
  });

  test("a wrong password answers like an unknown account (sign-in/email)", async () => {
    const { input } = await createVerifiedUser(app);
    const wrongPassword = await createClient(app).post("/api/auth/sign-in/email", {
      email: input.email,
      password: "not-the-password",
    });
    const unknown = await createClient(app).post("/api/auth/sign-in/email", {
      email: buildUser().email,
      password: "not-the-password",
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknown.status).toBe(wrongPassword.status);
    expect(withoutRequestId(await readJson(unknown))).toEqual(withoutRequestId(await readJson(wrongPassword)));
  });

  test("a wrong password answers like an unknown account (sign-in/username)", async () => {
    const { input } = await createVerifiedUser(app);
    const wrongPassword = await createClient(app).post("/api/auth/sign-in/username", {
      username: input.username,
      password: "not-the-password",
    });
    const unknown = await createClient(app).post("/api/auth/sign-in/username", {
      username: buildUser().username,
      password: "not-the-password",
    });
    const body = await expectError(wrongPassword, 401, "invalid username or password");
    expect(unknown.status).toBe(401);
    expect(withoutRequestId(await readJson(unknown))).toEqual(withoutRequestId(body));
  });

  test("sign-up with a registered e-mail answers exactly like a new sign-up; the owner gets a mail instead", async () => {
    const existing = await createVerifiedUser(app);
    const fresh = buildUser();
    const normal = await createClient(app).post("/api/auth/sign-up/email", {
      ...fresh,
      username: `Mixed.${fresh.username}`,
    });
    const other = buildUser();
    const duplicate = await createClient(app).post("/api/auth/sign-up/email", {
      ...other,
      email: existing.input.email,
      name: fresh.name,
      username: `Mixed.${other.username}`,
    });
    expect(duplicate.status).toBe(normal.status);
    const normalBody = await readJson<{ token: null; user: Record<string, unknown> }>(normal);
    const duplicateBody = await readJson<{ token: null; user: Record<string, unknown> }>(duplicate);
    const shape = (body: { token: null; user: Record<string, unknown> }) => ({
      token: body.token,
      keys: Object.keys(body.user).sort(),
      constant: {
        emailVerified: body.user.emailVerified,
        role: body.user.role,
        banned: body.user.banned,
        image: body.user.image,
        name: body.user.name,
      },
      username: {
        isLowercase: body.user.username === String(body.user.username).toLowerCase(),
        display: String(body.user.displayUsername).startsWith("Mixed."),
      },
    });
    expect(shape(duplicateBody)).toEqual(shape(normalBody));
    expect(duplicate.headers.get("set-cookie")).toBeNull();

    const mail = await readLatestMail(app, existing.input.email);
    expect(mail.subject).toBe("Someone tried to sign up to Atrium with your address");
    // The account is untouched: its password still works.
    await signInOnNewClient(app, existing.input);
  });

  test("a password reset request for an unknown e-mail answers like one for a known e-mail, and mails nobody", async () => {
    const { input } = await createVerifiedUser(app);
    const unknownEmail = buildUser().email;
    const known = await createClient(app).post("/api/auth/request-password-reset", {
      email: input.email,
      redirectTo: "/reset-password",
    });
    const unknown = await createClient(app).post("/api/auth/request-password-reset", {
      email: unknownEmail,
      redirectTo: "/reset-password",
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toBe(await known.text());
    expect((await readLatestMail(app, input.email)).subject).toBe("Reset your Atrium password");
    expect(await listMails(app, unknownEmail)).toEqual([]);
  });
});

describe("sessions", () => {
  test("list-sessions, revoke-session, revoke-other-sessions and revoke-sessions end exactly the sessions they name", async () => {
    const { input, client: first } = await createVerifiedUser(app);
    const second = await signInOnNewClient(app, input);
    const third = await signInOnNewClient(app, input);

    const list = await first.get("/api/auth/list-sessions");
    expect(list.status).toBe(200);
    const sessions = await readJson<Array<{ token: string; userId: string }>>(list);
    expect(sessions).toHaveLength(3);

    const secondToken = (await getSession(second))!.session.token;
    const revoke = await first.post("/api/auth/revoke-session", { token: secondToken });
    expect(revoke.status).toBe(200);
    expect(await getSession(second)).toBeNull();
    expect(await getSession(third)).not.toBeNull();

    const fourth = await signInOnNewClient(app, input);
    const revokeOthers = await first.post("/api/auth/revoke-other-sessions");
    expect(revokeOthers.status).toBe(200);
    expect(await getSession(third)).toBeNull();
    expect(await getSession(fourth)).toBeNull();
    expect(await getSession(first)).not.toBeNull();

    const fifth = await signInOnNewClient(app, input);
    const revokeAll = await first.post("/api/auth/revoke-sessions");
    expect(revokeAll.status).toBe(200);
    expect(await getSession(first)).toBeNull();
    expect(await getSession(fifth)).toBeNull();
  });

  test("a user cannot revoke another user's session", async () => {
    const alice = await createVerifiedUser(app);
    const bob = await createVerifiedUser(app);
    const bobToken = (await getSession(bob.client))!.session.token;
    await alice.client.post("/api/auth/revoke-session", { token: bobToken });
    expect(await getSession(bob.client)).not.toBeNull();
  });

  test("session endpoints without a session answer 401", async () => {
    const anonymous = createClient(app);
    expect((await anonymous.get("/api/auth/list-sessions")).status).toBe(401);
    expect((await anonymous.post("/api/auth/revoke-other-sessions")).status).toBe(401);
    expect((await anonymous.post("/api/auth/update-user", { name: "x" })).status).toBe(401);
  });
});

describe("profile, password and account", () => {
  test("update-user changes the name and the username (stored in lowercase)", async () => {
    const { client } = await createVerifiedUser(app);
    const username = `New.${buildUser().username}`;
    const response = await client.post("/api/auth/update-user", { name: "Renamed Person", username });
    expect(response.status).toBe(200);
    const session = await getSession(client);
    expect(session?.user).toMatchObject({
      name: "Renamed Person",
      username: username.toLowerCase(),
      displayUsername: username,
    });
  });

  test("update-user keeps a displayUsername that is given with the username", async () => {
    const { client } = await createVerifiedUser(app);
    const username = buildUser().username;
    expect((await client.post("/api/auth/update-user", { username, displayUsername: "Shown As" })).status).toBe(200);
    expect((await getSession(client))?.user).toMatchObject({ username, displayUsername: "Shown As" });
  });

  test("change-password ends every other session even when the client asks to keep them", async () => {
    const { input, client } = await createVerifiedUser(app);
    const other = await signInOnNewClient(app, input);
    const newPassword = buildUser().password;
    const response = await client.post("/api/auth/change-password", {
      currentPassword: input.password,
      newPassword,
      revokeOtherSessions: false,
    });
    expect(response.status).toBe(200);
    expect(await getSession(other)).toBeNull();
    expect(await getSession(client)).not.toBeNull();

    const oldPassword = await createClient(app).post("/api/auth/sign-in/email", {
      email: input.email,
      password: input.password,
    });
    expect(oldPassword.status).toBe(401);
    await signInOnNewClient(app, { ...input, password: newPassword });
    expect(
      (await readLatestMail(app, input.email, (mail) => mail.subject.startsWith("Your password was changed"))).subject,
    ).toBe("Your password was changed — Atrium");
  });

  test("change-password with a wrong current password changes nothing", async () => {
    const { input, client } = await createVerifiedUser(app);
    const other = await signInOnNewClient(app, input);
    const response = await client.post("/api/auth/change-password", {
      currentPassword: "wrong-password",
      newPassword: buildUser().password,
    });
    expect(response.status).toBe(400);
    expect(await getSession(other)).not.toBeNull();
  });

  test("change-password to the current password is refused (400 PASSWORD_UNCHANGED) and changes nothing; a wrong current password still gets INVALID_PASSWORD", async () => {
    const { input, client } = await createVerifiedUser(app);
    const other = await signInOnNewClient(app, input);
    const unchanged = await client.post("/api/auth/change-password", {
      currentPassword: input.password,
      newPassword: input.password,
    });
    const body = await expectError(unchanged, 400, "The new password must differ from the current password");
    expect(body.code).toBe("PASSWORD_UNCHANGED");
    expect(await getSession(other)).not.toBeNull();
    expect(await listMails(app, input.email)).not.toContainEqual(
      expect.objectContaining({ subject: "Your password was changed — Atrium" }),
    );

    const wrongAndSame = await client.post("/api/auth/change-password", {
      currentPassword: "wrong-password-1",
      newPassword: "wrong-password-1",
    });
    expect((await expectError(wrongAndSame, 400, "Invalid password")).code).toBe("INVALID_PASSWORD");
  });

  test("a password reset sets the new password and ends every session of the user", async () => {
    const { input, client } = await createVerifiedUser(app);
    const other = await signInOnNewClient(app, input);
    const request = await createClient(app).post("/api/auth/request-password-reset", {
      email: input.email,
      redirectTo: "/reset-password",
    });
    expect(request.status).toBe(200);
    const link = extractLink(
      await readLatestMail(app, input.email, (mail) => mail.subject === "Reset your Atrium password"),
    );
    expect(link).toMatch(/^\/api\/auth\/reset-password\/[^/?]+\?callbackURL=%2Freset-password$/);

    const browser = createClient(app);
    const landing = await browser.get(link);
    expect(landing.status).toBe(302);
    const token = extractToken(link);
    expect(landing.headers.get("location")).toBe(`http://localhost:3000/reset-password?token=${token}`);

    const newPassword = buildUser().password;
    const reset = await browser.post("/api/auth/reset-password", { token, newPassword, revokeOtherSessions: false });
    expect(reset.status).toBe(200);
    expect(await getSession(client)).toBeNull();
    expect(await getSession(other)).toBeNull();
    expect(
      (await createClient(app).post("/api/auth/sign-in/email", { email: input.email, password: input.password }))
        .status,
    ).toBe(401);
    await signInOnNewClient(app, { ...input, password: newPassword });
    expect((await readLatestMail(app, input.email)).subject).toBe("Your password was reset — Atrium");

    const reused = await browser.post("/api/auth/reset-password", { token, newPassword: buildUser().password });
    await expectError(reused, 400, "Invalid token");
  });

  test("a password reset link stops working after 1 hour", async () => {
    const { input } = await createVerifiedUser(app);
    await createClient(app).post("/api/auth/request-password-reset", {
      email: input.email,
      redirectTo: "/reset-password",
    });
    const token = extractToken(
      extractLink(await readLatestMail(app, input.email, (mail) => mail.subject === "Reset your Atrium password")),
    );

    travelForward(ONE_HOUR_MS + 60_000);
    const reset = await createClient(app).post("/api/auth/reset-password", {
      token,
      newPassword: buildUser().password,
    });
    await expectError(reset, 400, "Invalid token");
    vi.useRealTimers();
    await signInOnNewClient(app, input);
  });

  test("a reset token used within the hour still works just before it ends", async () => {
    const { input } = await createVerifiedUser(app);
    await createClient(app).post("/api/auth/request-password-reset", {
      email: input.email,
      redirectTo: "/reset-password",
    });
    const token = extractToken(
      extractLink(await readLatestMail(app, input.email, (mail) => mail.subject === "Reset your Atrium password")),
    );
    travelForward(ONE_HOUR_MS - 60_000);
    const reset = await createClient(app).post("/api/auth/reset-password", {
      token,
      newPassword: buildUser().password,
    });
    expect(reset.status).toBe(200);
  });

  test("delete-user with the password removes the account and its sessions", async () => {
    const { input, client } = await createVerifiedUser(app);
    const other = await signInOnNewClient(app, input);
    const wrong = await client.post("/api/auth/delete-user", { password: "not-the-password" });
    expect(wrong.status).toBe(400);
    expect(await getSession(client)).not.toBeNull();

    const response = await client.post("/api/auth/delete-user", { password: input.password });
    expect(response.status).toBe(200);
    expect(await getSession(client)).toBeNull();
    expect(await getSession(other)).toBeNull();
    expect(
      (await createClient(app).post("/api/auth/sign-in/email", { email: input.email, password: input.password }))
        .status,
    ).toBe(401);
    expect((await readLatestMail(app, input.email)).subject).toBe("Your account was deleted — Atrium");
    // The username is free again.
    const available = await createClient(app).post("/api/auth/is-username-available", { username: input.username });
    expect(await readJson(available)).toEqual({ available: true });
  });

  test("is-username-available compares in lowercase", async () => {
    const { input } = await createVerifiedUser(app);
    const client = createClient(app);
    expect(
      await readJson(await client.post("/api/auth/is-username-available", { username: input.username.toUpperCase() })),
    ).toEqual({ available: false });
    expect(
      await readJson(await client.post("/api/auth/is-username-available", { username: buildUser().username })),
    ).toEqual({ available: true });
  });
});

describe("callbackURL and redirectTo", () => {
  test("a foreign callbackURL or redirectTo is refused with 403; the app's own paths and trusted origins pass", async () => {
    const client = createClient(app);
    const foreignSignUp = await client.post("/api/auth/sign-up/email", {
      ...buildUser(),
      callbackURL: "https://evil.example.test/welcome",
    });
    expect(foreignSignUp.status).toBe(403);
    expect((await readJson<{ code: string }>(foreignSignUp)).code).toBe("INVALID_CALLBACK_URL");

    const { input } = await createVerifiedUser(app);
    const foreignReset = await client.post("/api/auth/request-password-reset", {
      email: input.email,
      redirectTo: "https://evil.example.test/reset",
    });
    expect(foreignReset.status).toBe(403);
    expect((await readJson<{ code: string }>(foreignReset)).code).toBe("INVALID_REDIRECT_URL");

    const foreignSignIn = await client.post("/api/auth/sign-in/email", {
      email: input.email,
      password: input.password,
      callbackURL: "//evil.example.test/",
    });
    expect(foreignSignIn.status).toBe(403);

    const trusted = await client.post("/api/auth/request-password-reset", {
      email: input.email,
      redirectTo: "https://partner.example.test/reset",
    });
    expect(trusted.status).toBe(200);
    const own = await client.post("/api/auth/request-password-reset", {
      email: input.email,
      redirectTo: "http://localhost:3000/reset-password",
    });
    expect(own.status).toBe(200);
  });

  test("a verification link with a foreign callbackURL does not redirect there", async () => {
    const { input } = await signUp(app);
    const link = extractLink(await readLatestMail(app, input.email));
    const tampered = link.replace("callbackURL=%2F", `callbackURL=${encodeURIComponent("https://evil.example.test/")}`);
    const response = await createClient(app).get(tampered);
    expect(response.status).toBe(403);
    expect(response.headers.get("location")).toBeNull();
  });
});

describe("ADMIN_EMAILS", () => {
  let adminApp: TestApp;
  const adminEmail = buildUser().email;

  beforeAll(async () => {
    adminApp = await createTestApp({ env: { ADMIN_EMAILS: ` ${adminEmail.toUpperCase()} ,other@example.test` } });
  });

  afterAll(async () => {
    await adminApp?.close();
  });

  test("a listed address gets the admin role at sign-up; others get user", async () => {
    const admin = await createVerifiedUser(adminApp, { email: adminEmail });
    const plain = await createVerifiedUser(adminApp);
    expect((await getSession(admin.client))?.user.role).toBe("admin");
    expect((await getSession(plain.client))?.user.role).toBe("user");
    const listUsers = await admin.client.get("/api/auth/admin/list-users");
    expect(listUsers.status).toBe(200);
    expect((await plain.client.get("/api/auth/admin/list-users")).status).toBe(403);
  });
});

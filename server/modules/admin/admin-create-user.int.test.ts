import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, signInByEmail, startAdminApp, stopAdminApp } from "../../test/admin-harness";
import { buildUser, extractLink, extractToken, listMails, readLatestMail, type TestUser } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * The platform-admin feature over HTTP: create-user, with and without a password.
 */

let app: TestApp;
/** A user with the platform role "admin". */
let admin: TestUser;
/** The user the refused calls name, owner of `organization`. */
let target: TestUser;

beforeAll(async () => {
  ({ app, admin, target } = await startAdminApp());
});

afterAll(stopAdminApp);

describe("create-user", () => {
  const create = (body: Record<string, unknown>) => admin.client.post(`${ADMIN}/create-user`, body);
  const userByEmail = (email: string) =>
    app.db.selectFrom("user").selectAll().where("email", "=", email).executeTakeFirst();

  it("with a password: the user exists with the role given, and cannot sign in before verifying the e-mail", async () => {
    const input = buildUser({ label: "Created With Password" });
    const response = await create({
      email: input.email,
      name: input.name,
      password: input.password,
      role: "admin",
      data: { username: input.username },
    });
    expect(response.status).toBe(200);
    expect(response.data.user).toMatchObject({
      email: input.email,
      name: input.name,
      role: "admin",
      emailVerified: false,
      username: input.username,
    });
    const row = await userByEmail(input.email);
    expect({ role: row?.role, emailVerified: Boolean(row?.emailVerified), username: row?.username }).toEqual({
      role: "admin",
      emailVerified: false,
      username: input.username,
    });
    await expectError(await signInByEmail(input), 403, "email not verified");
  });

  it("without a password: a set-a-password mail, whose link sets the password, verifies the e-mail and lets the user sign in", async () => {
    const input = buildUser({ label: "Invited" });
    const response = await create({ email: input.email, name: input.name });
    expect(response.status).toBe(200);
    expect(response.data.user).toMatchObject({ email: input.email, role: "user", emailVerified: false });

    const mail = await readLatestMail(
      app,
      input.email,
      (candidate) => candidate.subject === "Set a password for Atrium",
    );
    const token = extractToken(extractLink(mail));
    const reset = await createClient(app).post("/api/auth/reset-password", { token, newPassword: input.password });
    expect(reset.status).toBe(200);
    expect(Boolean((await userByEmail(input.email))?.emailVerified)).toBe(true);
    const signIn = await signInByEmail(input);
    expect(signIn.status).toBe(200);
    expect(signIn.data.user).toMatchObject({ email: input.email, emailVerified: true });
  });

  it.each([
    ["too short", "ab", "username is too short"],
    ["invalid", "bad-name!", "username is invalid"],
  ])("a username that is %s: 422, and nobody is created", async (_case, username, message) => {
    const input = buildUser({ label: "Bad Username" });
    await expectError(
      await create({ email: input.email, name: input.name, password: input.password, data: { username } }),
      422,
      message,
    );
    expect(await userByEmail(input.email)).toBeUndefined();
  });

  it("a username someone has, in any case: 422, and nobody is created", async () => {
    const input = buildUser({ label: "Taken Username" });
    await expectError(
      await create({
        email: input.email,
        name: input.name,
        password: input.password,
        data: { username: target.username.toUpperCase() },
      }),
      422,
      "username is already taken. please try another.",
    );
    expect(await userByEmail(input.email)).toBeUndefined();
  });

  it("an e-mail someone has, in any case: better-auth's 400 'User already exists. Use another email.', and no mail to it", async () => {
    const before = (await listMails(app, target.email)).length;
    const body = await expectError(
      await create({ email: target.email.toUpperCase(), name: "Duplicate" }),
      400,
      "User already exists. Use another email.",
    );
    expect(body.code).toBe("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    expect((await listMails(app, target.email)).length).toBe(before);
  });
});

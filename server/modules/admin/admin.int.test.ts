import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locationOf, signInWithDevProvider } from "../../test/dev-identity";
import {
  addMember,
  buildUser,
  createOrganizationWithOwner,
  createVerifiedUser,
  extractLink,
  extractToken,
  getSession,
  listMails,
  readLatestMail,
  signedInUser,
  signInOnNewClient,
  signUp,
  type CreatedOrganization,
  type TestUser,
  type UserInput,
} from "../../test/factories";
import { createClient, expectError, type TestClient, type TestResponse } from "../../test/request";
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from "../../test/test-database";

/**
 * The platform-admin feature over HTTP: better-auth's admin endpoints as `platformAdmin` configures them (the spec's
 * permission matrix, configured administrator ids, our rules), the console's own reads at /api/admin, and what a ban,
 * an impersonation and a created user mean for the people concerned.
 */

const ADMIN = "/api/auth/admin";
const accessMessage = (resource: string) => `You are not allowed to access resource: ${resource}`;

let database: TestDatabase;
let app: TestApp;
/** A user whose id is in ADMIN_USER_IDS; their role stays "user". */
let configured: TestUser;
/** A user with the platform role "admin". */
let admin: TestUser;
/** A user with the platform role "user". */
let plain: TestUser;
/** The user the refused calls name, owner of `organization`. */
let target: TestUser;
let organization: CreatedOrganization;

beforeAll(async () => {
  // ADMIN_USER_IDS is read when the app starts, and better-auth makes a user's id up at sign-up: the id cannot be
  // chosen first. So the configured administrator signs up on a first app, which then stops; the app under test
  // starts on the same database with ADMIN_USER_IDS naming that id, and the administrator signs in there again (each
  // app has its own auth secret, so the first app's cookies mean nothing to the second).
  database = await createTestDatabase();
  let configuredInput: UserInput;
  let configuredId: string;
  const bootstrap = await createTestApp({ database });
  try {
    const user = await createVerifiedUser(bootstrap, { label: "Configured Admin" });
    configuredInput = user.input;
    configuredId = user.id;
  } finally {
    await bootstrap.close();
  }
  // Listening, with the development identity provider on: the social sign-ins below go through it.
  app = await createTestApp({ database, listen: true, env: { ADMIN_USER_IDS: configuredId, DEV_IDENTITY_PROVIDER: "true" } });
  configured = await signedInUser(configuredInput, await signInOnNewClient(app, configuredInput));
  expect(configured.id).toBe(configuredId);
  [admin, plain, target] = await Promise.all([
    createVerifiedUser(app, { label: "Role Admin" }),
    createVerifiedUser(app, { label: "Plain User" }),
    createVerifiedUser(app, { label: "Target User" }),
  ]);
  await setRoleAs(configured, admin.id, "admin");
  organization = await createOrganizationWithOwner(target, "Target Org");
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

/** set-role through the API, checked. */
async function setRoleAs(actor: { client: TestClient }, userId: string, role: string): Promise<void> {
  const response = await actor.client.post(`${ADMIN}/set-role`, { userId, role });
  if (response.status !== 200) throw new Error(`set-role answered ${response.status} ${JSON.stringify(response.data)}`);
}

const userRow = (id: string) => app.db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
const signInByEmail = (input: Pick<UserInput, "email" | "password">) =>
  createClient(app).post("/api/auth/sign-in/email", { email: input.email, password: input.password });
const signInByUsername = (input: Pick<UserInput, "username" | "password">) =>
  createClient(app).post("/api/auth/sign-in/username", { username: input.username, password: input.password });
const sessionTokenOf = async (client: TestClient) => (await getSession(client))!.session.token;

/** What an admin endpoint is called on: a user, one of their sessions, an organization. */
type Targets = { userId: string; sessionToken: string; organizationId: string };
type AdminEndpoint = {
  name: string;
  /** The resource its access-check message names. */
  resource: "user" | "session" | "organization" | "auditLog" | "billing";
  send: (client: TestClient, on: Targets) => Promise<TestResponse>;
  /** What a configured administrator gets when it is not 200: the endpoint's own answer, past the access check. */
  allowed?: { status: number; message: string };
  /** The call changes the user it names (or ends their sessions): a configured administrator's call names a user of its own. */
  changesUser?: boolean;
  /** The call replaces the caller's session (an impersonation): a configured administrator makes it from a browser of its own. */
  replacesSession?: boolean;
};

const BETTER_AUTH_ENDPOINTS: AdminEndpoint[] = [
  { name: "GET /api/auth/admin/list-users", resource: "user", send: (client) => client.get(`${ADMIN}/list-users`) },
  {
    name: "POST /api/auth/admin/create-user",
    resource: "user",
    send: (client) => {
      const { email, name, password } = buildUser({ label: "Created" });
      return client.post(`${ADMIN}/create-user`, { email, name, password });
    },
  },
  {
    name: "POST /api/auth/admin/set-role",
    resource: "user",
    changesUser: true,
    send: (client, on) => client.post(`${ADMIN}/set-role`, { userId: on.userId, role: "user" }),
  },
  {
    name: "POST /api/auth/admin/ban-user",
    resource: "user",
    changesUser: true,
    send: (client, on) => client.post(`${ADMIN}/ban-user`, { userId: on.userId, banReason: "Spam" }),
  },
  {
    name: "POST /api/auth/admin/unban-user",
    resource: "user",
    changesUser: true,
    send: (client, on) => client.post(`${ADMIN}/unban-user`, { userId: on.userId }),
  },
  {
    name: "POST /api/auth/admin/impersonate-user",
    resource: "user",
    changesUser: true,
    replacesSession: true,
    send: (client, on) => client.post(`${ADMIN}/impersonate-user`, { userId: on.userId, reason: "Support ticket 42" }),
  },
  {
    name: "POST /api/auth/admin/list-user-sessions",
    resource: "session",
    send: (client, on) => client.post(`${ADMIN}/list-user-sessions`, { userId: on.userId }),
  },
  {
    name: "POST /api/auth/admin/revoke-user-session",
    resource: "session",
    changesUser: true,
    send: (client, on) => client.post(`${ADMIN}/revoke-user-session`, { sessionToken: on.sessionToken }),
  },
  {
    name: "POST /api/auth/admin/revoke-user-sessions",
    resource: "session",
    changesUser: true,
    send: (client, on) => client.post(`${ADMIN}/revoke-user-sessions`, { userId: on.userId }),
  },
  {
    name: "POST /api/auth/admin/remove-user",
    resource: "user",
    changesUser: true,
    send: (client, on) => client.post(`${ADMIN}/remove-user`, { userId: on.userId }),
  },
  {
    name: "POST /api/auth/admin/set-user-password",
    resource: "user",
    changesUser: true,
    send: (client, on) => client.post(`${ADMIN}/set-user-password`, { userId: on.userId, newPassword: buildUser().password }),
  },
  {
    name: "GET /api/auth/admin/get-user",
    resource: "user",
    send: (client, on) => client.get(`${ADMIN}/get-user?id=${encodeURIComponent(on.userId)}`),
  },
];

const CONSOLE_ROUTES: AdminEndpoint[] = [
  { name: "GET /api/admin/users", resource: "user", send: (client) => client.get("/api/admin/users") },
  { name: "GET /api/admin/users/:userId", resource: "user", send: (client, on) => client.get(`/api/admin/users/${on.userId}`) },
  { name: "GET /api/admin/organizations", resource: "organization", send: (client) => client.get("/api/admin/organizations") },
  {
    name: "GET /api/admin/organizations/:organizationId",
    resource: "organization",
    send: (client, on) => client.get(`/api/admin/organizations/${on.organizationId}`),
  },
  { name: "GET /api/admin/audit-log", resource: "auditLog", send: (client) => client.get("/api/admin/audit-log") },
  { name: "GET /api/admin/audit-log/export", resource: "auditLog", send: (client) => client.get("/api/admin/audit-log/export") },
  {
    name: "GET /api/admin/billing/organizations/:organizationId",
    resource: "billing",
    send: (client, on) => client.get(`/api/admin/billing/organizations/${on.organizationId}`),
  },
  {
    name: "POST /api/admin/billing/organizations/:organizationId/refunds",
    resource: "billing",
    allowed: { status: 404, message: "order not found" },
    send: (client, on) => client.post(`/api/admin/billing/organizations/${on.organizationId}/refunds`, { orderId: "no-such-order", reason: "other" }),
  },
  {
    name: "POST /api/admin/billing/organizations/:organizationId/reconcile",
    resource: "billing",
    send: (client, on) => client.post(`/api/admin/billing/organizations/${on.organizationId}/reconcile`),
  },
];

const ALL_ENDPOINTS = [...BETTER_AUTH_ENDPOINTS, ...CONSOLE_ROUTES];

const targetsOf = async (user: TestUser): Promise<Targets> => ({
  userId: user.id,
  sessionToken: await sessionTokenOf(user.client),
  organizationId: organization.id,
});

describe("access to the admin endpoints", () => {
  it.each(ALL_ENDPOINTS)("$name refuses a signed-in user without the platform role: 403 on resource $resource", async ({ send, resource }) => {
    await expectError(await send(plain.client, await targetsOf(target)), 403, accessMessage(resource));
  });

  it.each(CONSOLE_ROUTES)("$name answers 401 without a session", async ({ send }) => {
    await expectError(await send(createClient(app), await targetsOf(target)), 401, "Unauthorized");
  });

  describe("while an admin impersonates a plain user", () => {
    let impersonating: TestClient;

    beforeAll(async () => {
      const impersonated = await createVerifiedUser(app, { label: "Impersonated" });
      impersonating = await signInOnNewClient(app, admin.input);
      const response = await impersonating.post(`${ADMIN}/impersonate-user`, { userId: impersonated.id, reason: "Reproduce a bug report" });
      expect(response.status).toBe(200);
      expect((await impersonating.get("/api/auth/get-session")).data.session.impersonatedBy).toBe(admin.id);
    });

    it.each(ALL_ENDPOINTS)("$name is refused: 403 on resource $resource", async ({ send, resource }) => {
      const body = await expectError(await send(impersonating, await targetsOf(target)), 403, accessMessage(resource));
      // FORBIDDEN: the impersonation closes the console, before any check of the impersonated user's own role.
      expect(body.code).toBe("FORBIDDEN");
    });
  });

  describe("for a configured administrator id whose role is user", () => {
    /** A user of its own for each call that changes the user it names, made up front (in parallel: hashing passwords takes a while). */
    const changedUsers = new Map<string, TestUser>();
    let ownBrowser: TestClient;

    beforeAll(async () => {
      expect((await userRow(configured.id))?.role).toBe("user");
      const changing = ALL_ENDPOINTS.filter((endpoint) => endpoint.changesUser);
      const users = await Promise.all(changing.map(() => createVerifiedUser(app, { label: "Changed" })));
      changing.forEach((endpoint, index) => changedUsers.set(endpoint.name, users[index]!));
      ownBrowser = await signInOnNewClient(app, configured.input);
    });

    it.each(ALL_ENDPOINTS)("$name lets them through", async ({ name, send, allowed, replacesSession }) => {
      const changed = changedUsers.get(name);
      const response = await send(replacesSession ? ownBrowser : configured.client, await targetsOf(changed ?? target));
      if (allowed) await expectError(response, allowed.status, allowed.message);
      else expect({ status: response.status, body: response.data }).toMatchObject({ status: 200 });
    });
  });
});

describe("rules of the admin endpoints", () => {
  it("better-auth's catch-all update-user is switched off, for configured administrators too: 404", async () => {
    const message = "No endpoint POST /api/auth/admin/update-user: use set-role, ban-user, unban-user or set-user-password";
    for (const actor of [plain, admin, configured]) {
      await expectError(await actor.client.post(`${ADMIN}/update-user`, { userId: target.id, data: { name: "Renamed By Admin" } }), 404, message);
    }
    expect((await userRow(target.id))?.name).not.toBe("Renamed By Admin");
  });

  it("an admin cannot ban, demote or delete themself, and stays an admin", async () => {
    await expectError(await admin.client.post(`${ADMIN}/ban-user`, { userId: admin.id, banReason: "Testing" }), 400, "You cannot ban yourself");
    await expectError(await admin.client.post(`${ADMIN}/remove-user`, { userId: admin.id }), 400, "You cannot remove yourself");
    const demote = await expectError(
      await admin.client.post(`${ADMIN}/set-role`, { userId: admin.id, role: "user" }),
      400,
      "You cannot change your own platform role",
    );
    expect(demote.code).toBe("YOU_CANNOT_CHANGE_YOUR_OWN_ROLE");
    await expectError(
      await admin.client.post(`${ADMIN}/set-role`, { userId: admin.id, role: ["admin", "user"] }),
      400,
      "You cannot change your own platform role",
    );
    const row = await userRow(admin.id);
    expect({ role: row?.role, banned: Boolean(row?.banned) }).toEqual({ role: "admin", banned: false });
    expect((await getSession(admin.client))?.user.id).toBe(admin.id);
  });
});

describe("the last platform admin", () => {
  // A database of its own: these tests count every platform admin in it.
  let lastDatabase: TestDatabase;
  /** An app without configured administrator ids. */
  let plainApp: TestApp;
  /** The same database, with `configuredAdmin` in ADMIN_USER_IDS (started once that user exists, as the main app is). */
  let configuredApp: TestApp;
  let first: TestUser;
  let second: TestUser;
  let configuredAdmin: TestUser;

  beforeAll(async () => {
    lastDatabase = await createTestDatabase();
    plainApp = await createTestApp({ database: lastDatabase });
    [first, second, configuredAdmin] = await Promise.all([
      createVerifiedUser(plainApp, { label: "First Admin" }),
      createVerifiedUser(plainApp, { label: "Second Admin" }),
      createVerifiedUser(plainApp, { label: "Configured Admin" }),
    ]);
    configuredApp = await createTestApp({ database: lastDatabase, env: { ADMIN_USER_IDS: configuredAdmin.id } });
    configuredAdmin = await signedInUser(configuredAdmin.input, await signInOnNewClient(configuredApp, configuredAdmin.input));
  });

  afterAll(async () => {
    await configuredApp?.close();
    await plainApp?.close();
    await lastDatabase?.drop();
  });

  /** Each test starts from the platform roles it names, written directly. */
  async function arrangeRoles(roles: Array<[TestUser, string]>): Promise<void> {
    for (const [user, role] of roles) await plainApp.db.updateTable("user").set({ role }).where("id", "=", user.id).execute();
  }
  const roleOf = async (user: TestUser) => (await plainApp.db.selectFrom("user").select("role").where("id", "=", user.id).executeTakeFirstOrThrow()).role;

  it("with two role admins, one demotes the other: 200, and the demoted one's role is user", async () => {
    await arrangeRoles([
      [first, "admin"],
      [second, "admin"],
    ]);
    const response = await first.client.post(`${ADMIN}/set-role`, { userId: second.id, role: "user" });
    expect(response.status).toBe(200);
    expect(response.data.user).toMatchObject({ id: second.id, role: "user" });
    expect(await roleOf(second)).toBe("user");
    expect((await getSession(second.client))?.user.role).toBe("user");
  });

  it("a configured administrator without the role may demote the only role admin: the configured id remains an admin", async () => {
    await arrangeRoles([
      [first, "admin"],
      [second, "user"],
    ]);
    const response = await configuredAdmin.client.post(`${ADMIN}/set-role`, { userId: first.id, role: "user" });
    expect(response.status).toBe(200);
    expect(await roleOf(first)).toBe("user");
    expect((await configuredAdmin.client.get("/api/admin/users")).status).toBe(200);
  });

  it("two role admins demoting each other at the same moment leave one of them admin: the later call is refused", async () => {
    await arrangeRoles([
      [first, "admin"],
      [second, "admin"],
    ]);
    const answers = await Promise.all([
      first.client.post(`${ADMIN}/set-role`, { userId: second.id, role: "user" }),
      second.client.post(`${ADMIN}/set-role`, { userId: first.id, role: "user" }),
    ]);
    const admins = [await roleOf(first), await roleOf(second)].filter((role) => role === "admin").length;
    const refused = answers.filter((answer) => answer.status !== 200).map((answer) => ({ status: answer.status, message: answer.data?.message }));
    expect({ admins, succeeded: answers.length - refused.length }).toEqual({ admins: 1, succeeded: 1 });
    // Refused by the rule, or by the access check when the caller has already been demoted by the other call.
    expect([
      { status: 400, message: "The last platform admin cannot be demoted, banned or deleted" },
      { status: 403, message: accessMessage("user") },
    ]).toContainEqual(refused[0]);
  });
});

describe("banned users", () => {
  let timed: TestUser;
  let permanent: TestUser;
  let expired: TestUser;
  let unbanned: TestUser;

  beforeAll(async () => {
    [timed, permanent, expired, unbanned] = await Promise.all([
      createVerifiedUser(app, { label: "Timed Ban" }),
      createVerifiedUser(app, { label: "Permanent Ban" }),
      createVerifiedUser(app, { label: "Expired Ban" }),
      createVerifiedUser(app, { label: "Unbanned" }),
    ]);
  });

  const ban = (userId: string, extra: Record<string, unknown> = {}) => admin.client.post(`${ADMIN}/ban-user`, { userId, banReason: "Spam", ...extra });
  const banOf = async (userId: string) => {
    const row = await userRow(userId);
    return { banned: Boolean(row?.banned), banReason: row?.banReason, banExpires: row?.banExpires };
  };

  it("a timed ban ends the user's sessions at once, and sign-in by e-mail and by username answers 403 with the ban's end", async () => {
    const otherDevice = await signInOnNewClient(app, timed.input);
    const response = await ban(timed.id, { banExpiresIn: 3600 });
    expect(response.status).toBe(200);
    const expires = new Date(response.data.user.banExpires as string);
    expect(expires.getTime() - Date.now()).toBeGreaterThan(3590_000);
    expect(expires.getTime() - Date.now()).toBeLessThanOrEqual(3600_000);

    // The cookies the user still holds name sessions that are gone.
    expect(await getSession(timed.client)).toBeNull();
    expect(await getSession(otherDevice)).toBeNull();
    expect(await app.db.selectFrom("session").select("id").where("userId", "=", timed.id).execute()).toEqual([]);

    const message = `Your account is banned until ${expires.toISOString()}.`;
    expect((await expectError(await signInByEmail(timed.input), 403, message)).code).toBe("BANNED_USER");
    expect((await expectError(await signInByUsername(timed.input), 403, message)).code).toBe("BANNED_USER");
  });

  it("a permanent ban answers 403 'Your account is banned.', and a sign-in through the identity provider ends on the error page", async () => {
    expect((await ban(permanent.id)).status).toBe(200);
    expect(await banOf(permanent.id)).toEqual({ banned: true, banReason: "Spam", banExpires: null });

    expect((await expectError(await signInByEmail(permanent.input), 403, "Your account is banned.")).code).toBe("BANNED_USER");
    expect((await expectError(await signInByUsername(permanent.input), 403, "Your account is banned.")).code).toBe("BANNED_USER");

    // The provider vouches for the same verified e-mail, so the identity would link to the account: the ban stops it.
    const browser = createClient(app);
    const answer = await signInWithDevProvider(browser, { name: permanent.name, email: permanent.email, emailVerified: true });
    const location = new URL(locationOf(answer));
    expect(`${location.origin}${location.pathname}`).toBe(`${app.config.baseUrl}/auth/error`);
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: "BANNED_USER", error_description: "Your account is banned." });
    expect(await getSession(browser)).toBeNull();
  });

  it("an expired ban lifts itself at the next sign-in: 200, and the user is no longer banned", async () => {
    expect((await ban(expired.id, { banExpiresIn: 3600 })).status).toBe(200);
    await app.db
      .updateTable("user")
      .set({ banExpires: new Date(Date.now() - 60_000).toISOString() })
      .where("id", "=", expired.id)
      .execute();

    const signIn = await signInByEmail(expired.input);
    expect(signIn.status).toBe(200);
    expect(await banOf(expired.id)).toEqual({ banned: false, banReason: null, banExpires: null });
  });

  it("unban lets them sign in again", async () => {
    expect((await ban(unbanned.id)).status).toBe(200);
    await expectError(await signInByEmail(unbanned.input), 403, "Your account is banned.");
    const unban = await admin.client.post(`${ADMIN}/unban-user`, { userId: unbanned.id });
    expect(unban.status).toBe(200);
    expect(unban.data.user).toMatchObject({ id: unbanned.id, banned: false, banReason: null, banExpires: null });
    expect((await signInByEmail(unbanned.input)).status).toBe(200);
    expect((await signInByUsername(unbanned.input)).status).toBe(200);
  });
});

describe("no user-facing endpoint sets a platform role, a ban or a verified e-mail", () => {
  let user: TestUser;

  beforeAll(async () => {
    user = await createVerifiedUser(app, { label: "Self Service" });
  });

  const fieldsOf = async (id: string) => {
    const row = await userRow(id);
    return {
      role: row?.role,
      banned: Boolean(row?.banned),
      banReason: row?.banReason,
      banExpires: row?.banExpires,
      emailVerified: Boolean(row?.emailVerified),
    };
  };

  it.each([
    ["role", "admin"],
    ["banned", true],
    ["banReason", "Self-inflicted"],
    ["banExpires", "2099-01-01T00:00:00.000Z"],
    ["emailVerified", false],
  ] as const)("POST /api/auth/update-user with %s: 400, and the user is unchanged", async (field, value) => {
    const before = await fieldsOf(user.id);
    expect(before).toEqual({ role: "user", banned: false, banReason: null, banExpires: null, emailVerified: true });
    const body = await expectError(await user.client.post("/api/auth/update-user", { [field]: value }), 400, `${field}: Unknown field`);
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(await fieldsOf(user.id)).toEqual(before);
  });

  it.each([
    ["role", "admin"],
    ["banned", false],
    ["emailVerified", true],
  ] as const)("POST /api/auth/sign-up/email with %s: 400, and no user is created", async (field, value) => {
    const input = buildUser({ label: "Self Made" });
    const body = await expectError(await createClient(app).post("/api/auth/sign-up/email", { ...input, [field]: value }), 400, `${field}: Unknown field`);
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(await app.db.selectFrom("user").select("id").where("email", "=", input.email).execute()).toEqual([]);
  });
});

describe("impersonation", () => {
  let otherAdmin: TestUser;
  let impersonated: TestUser;

  beforeAll(async () => {
    [otherAdmin, impersonated] = await Promise.all([createVerifiedUser(app, { label: "Other Admin" }), createVerifiedUser(app, { label: "Impersonated" })]);
    await setRoleAs(configured, otherAdmin.id, "admin");
  });

  it("is refused for an admin, by role or by configured id: 403 'You cannot impersonate admins'", async () => {
    const browser = await signInOnNewClient(app, admin.input);
    for (const userId of [otherAdmin.id, configured.id]) {
      const body = await expectError(await browser.post(`${ADMIN}/impersonate-user`, { userId, reason: "Curious" }), 403, "You cannot impersonate admins");
      expect(body.code).toBe("YOU_CANNOT_IMPERSONATE_ADMINS");
    }
    expect((await getSession(browser))?.user.id).toBe(admin.id);
  });

  it("lasts at most an hour, shows the admin in get-session, and stop-impersonating gives the admin their session back", async () => {
    const browser = await signInOnNewClient(app, admin.input);
    const adminToken = await sessionTokenOf(browser);
    expect((await browser.post(`${ADMIN}/impersonate-user`, { userId: impersonated.id, reason: "Support ticket 7" })).status).toBe(200);

    const current = (await browser.get("/api/auth/get-session")).data;
    expect(current.user.id).toBe(impersonated.id);
    expect(current.session.impersonatedBy).toBe(admin.id);
    const row = await app.db.selectFrom("session").selectAll().where("token", "=", current.session.token).executeTakeFirstOrThrow();
    expect(row.impersonatedBy).toBe(admin.id);
    const lifetimeSeconds = (new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime()) / 1000;
    expect(lifetimeSeconds).toBeGreaterThan(3590);
    expect(lifetimeSeconds).toBeLessThanOrEqual(3600);

    const stop = await browser.post(`${ADMIN}/stop-impersonating`);
    expect(stop.status).toBe(200);
    const restored = (await browser.get("/api/auth/get-session")).data;
    expect(restored.user.id).toBe(admin.id);
    expect(restored.session.token).toBe(adminToken);
    expect(restored.session.impersonatedBy ?? null).toBeNull();
    expect(await app.db.selectFrom("session").select("id").where("token", "=", current.session.token).execute()).toEqual([]);
    // The user's own session was never touched.
    expect((await getSession(impersonated.client))?.user.id).toBe(impersonated.id);
  });
});

describe("create-user", () => {
  const create = (body: Record<string, unknown>) => admin.client.post(`${ADMIN}/create-user`, body);
  const userByEmail = (email: string) => app.db.selectFrom("user").selectAll().where("email", "=", email).executeTakeFirst();

  it("with a password: the user exists with the role given, and cannot sign in before verifying the e-mail", async () => {
    const input = buildUser({ label: "Created With Password" });
    const response = await create({ email: input.email, name: input.name, password: input.password, role: "admin", data: { username: input.username } });
    expect(response.status).toBe(200);
    expect(response.data.user).toMatchObject({ email: input.email, name: input.name, role: "admin", emailVerified: false, username: input.username });
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

    const mail = await readLatestMail(app, input.email, (candidate) => candidate.subject === "Set a password for Atrium");
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
    await expectError(await create({ email: input.email, name: input.name, password: input.password, data: { username } }), 422, message);
    expect(await userByEmail(input.email)).toBeUndefined();
  });

  it("a username someone has, in any case: 422, and nobody is created", async () => {
    const input = buildUser({ label: "Taken Username" });
    await expectError(
      await create({ email: input.email, name: input.name, password: input.password, data: { username: target.username.toUpperCase() } }),
      422,
      "username is already taken. please try another.",
    );
    expect(await userByEmail(input.email)).toBeUndefined();
  });

  it("an e-mail someone has, in any case: better-auth's 400 'User already exists. Use another email.', and no mail to it", async () => {
    const before = (await listMails(app, target.email)).length;
    const body = await expectError(await create({ email: target.email.toUpperCase(), name: "Duplicate" }), 400, "User already exists. Use another email.");
    expect(body.code).toBe("USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL");
    expect((await listMails(app, target.email)).length).toBe(before);
  });
});

describe("the console's reads", () => {
  /** A word in the names of the users made here and nobody else's, so the lists can be read without the others. */
  const batch = `Batch${randomBytes(4).toString("hex")}`;
  const word = () => randomBytes(5).toString("hex");
  /** Name, e-mail and username each made of a word of their own, so a search for one finds the user by that column alone. */
  const parts = { name: `${batch} Zed ${word()}`, email: `${word()}@example.test`, username: `u_${word()}` };
  let found: TestUser;
  let unverified: { userId: string; input: UserInput };
  let banned: TestUser;
  let promoted: TestUser;
  let banShown: TestUser;
  let detailed: TestUser;
  let owner: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    [found, banned, promoted, banShown, detailed, owner, member, unverified] = await Promise.all([
      createVerifiedUser(app, parts),
      createVerifiedUser(app, { label: `${batch} Banned` }),
      createVerifiedUser(app, { label: `${batch} Admin` }),
      createVerifiedUser(app, { label: "Ban Shown" }),
      createVerifiedUser(app, { label: "Detailed" }),
      createVerifiedUser(app, { label: "Org Owner" }),
      createVerifiedUser(app, { label: "Org Member" }),
      signUp(app, buildUser({ label: `${batch} Unverified` })),
    ]);
    await setRoleAs(configured, promoted.id, "admin");
    expect((await admin.client.post(`${ADMIN}/ban-user`, { userId: banned.id, banReason: "Spam", banExpiresIn: 3600 })).status).toBe(200);
  });

  const listUsers = async (query: Record<string, string>) => {
    const response = await admin.client.get(`/api/admin/users?${new URLSearchParams(query).toString()}`);
    expect(response.status).toBe(200);
    return response.data as { users: Array<Record<string, unknown> & { id: string }>; total: number; limit: number; offset: number };
  };
  const idsOf = (list: { users: Array<{ id: string }> }) => list.users.map((user) => user.id).sort();

  it("GET /api/admin/users finds a user by part of the name, of the e-mail and of the username, in any case", async () => {
    const nameWord = parts.name.split(" ").at(-1)!;
    for (const q of [nameWord.slice(1, 8), parts.email.slice(1, 8).toUpperCase(), parts.username.slice(2, 9)]) {
      const list = await listUsers({ q });
      expect({ q, ids: idsOf(list), total: list.total }).toEqual({ q, ids: [found.id], total: 1 });
    }
    expect((await listUsers({ q: found.email })).users).toEqual([
      {
        id: found.id,
        name: parts.name,
        email: parts.email,
        username: parts.username,
        image: null,
        role: "user",
        isPlatformAdmin: false,
        emailVerified: true,
        banned: false,
        banReason: null,
        banExpires: null,
        createdAt: expect.any(String),
      },
    ]);
  });

  it("GET /api/admin/users filters by role, status and verified e-mail", async () => {
    expect(idsOf(await listUsers({ q: batch }))).toEqual([found.id, banned.id, promoted.id, unverified.userId].sort());
    expect(idsOf(await listUsers({ q: batch, role: "admin" }))).toEqual([promoted.id]);
    expect(idsOf(await listUsers({ q: batch, role: "user" }))).toEqual([found.id, banned.id, unverified.userId].sort());
    expect(idsOf(await listUsers({ q: batch, status: "banned" }))).toEqual([banned.id]);
    expect(idsOf(await listUsers({ q: batch, status: "active" }))).toEqual([found.id, promoted.id, unverified.userId].sort());
    expect(idsOf(await listUsers({ q: batch, verified: "no" }))).toEqual([unverified.userId]);
    expect(idsOf(await listUsers({ q: batch, verified: "yes" }))).toEqual([found.id, banned.id, promoted.id].sort());
  });

  it("GET /api/admin/users shows banned: true only while the ban is in force", async () => {
    const ban = await admin.client.post(`${ADMIN}/ban-user`, { userId: banShown.id, banReason: "Abuse", banExpiresIn: 3600 });
    const expires = new Date(ban.data.user.banExpires as string).toISOString();
    expect((await listUsers({ q: banShown.email })).users[0]).toMatchObject({ id: banShown.id, banned: true, banReason: "Abuse", banExpires: expires });
    expect(idsOf(await listUsers({ q: banShown.email, status: "banned" }))).toEqual([banShown.id]);

    await app.db
      .updateTable("user")
      .set({ banExpires: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", banShown.id)
      .execute();
    expect((await listUsers({ q: banShown.email })).users[0]).toMatchObject({ id: banShown.id, banned: false, banReason: null, banExpires: null });
    expect(idsOf(await listUsers({ q: banShown.email, status: "banned" }))).toEqual([]);
    expect(idsOf(await listUsers({ q: banShown.email, status: "active" }))).toEqual([banShown.id]);
  });

  it("GET /api/admin/users marks platform admins: the admin role and a configured administrator id", async () => {
    expect((await listUsers({ q: promoted.email })).users[0]).toMatchObject({ id: promoted.id, role: "admin", isPlatformAdmin: true });
    expect((await listUsers({ q: configured.email })).users[0]).toMatchObject({ id: configured.id, role: "user", isPlatformAdmin: true });
    expect((await listUsers({ q: plain.email })).users[0]).toMatchObject({ id: plain.id, role: "user", isPlatformAdmin: false });
  });

  it("GET /api/admin/users refuses a page size it does not offer: 400 VALIDATION_ERROR", async () => {
    const body = await expectError(await admin.client.get("/api/admin/users?limit=7"), 400, "limit: Use a page size of 10, 25, 50, 100");
    expect(body.code).toBe("VALIDATION_ERROR");
  });

  it("GET /api/admin/users/:userId shows the sign-in methods (credential, then dev once linked) and the organizations with their roles", async () => {
    const own = await createOrganizationWithOwner(detailed, "Zulu Works");
    await addMember(target, organization.id, detailed, "admin");

    const before = await admin.client.get(`/api/admin/users/${detailed.id}`);
    expect(before.status).toBe(200);
    expect(before.data.user).toMatchObject({
      id: detailed.id,
      email: detailed.email,
      username: detailed.username,
      displayUsername: detailed.username,
      role: "user",
      isPlatformAdmin: false,
    });
    expect(before.data.signInMethods).toEqual([{ providerId: "credential", email: null, createdAt: expect.any(String) }]);
    expect(before.data.organizations).toEqual([
      { id: organization.id, name: "Target Org", slug: organization.slug, role: "admin", joinedAt: expect.any(String) },
      { id: own.id, name: "Zulu Works", slug: own.slug, role: "owner", joinedAt: expect.any(String) },
    ]);

    // The provider vouches for the account's verified e-mail: the identity links to the account.
    expect(locationOf(await signInWithDevProvider(createClient(app), { name: detailed.name, email: detailed.email, emailVerified: true }))).toBe("/");
    const after = await admin.client.get(`/api/admin/users/${detailed.id}`);
    expect(after.data.signInMethods.map((method: { providerId: string; email: string | null }) => [method.providerId, method.email])).toEqual([
      ["credential", null],
      ["dev", detailed.email],
    ]);
  });

  it("GET /api/admin/users/:userId answers 404 'user not found' for an unknown id", async () => {
    const body = await expectError(await admin.client.get("/api/admin/users/no-such-user"), 404, "user not found");
    expect(body.code).toBe("NOT_FOUND");
  });

  describe("organizations", () => {
    let created: CreatedOrganization;
    let helpdeskId: string;
    let invitationId: string;
    const invitedEmail = buildUser().email;

    beforeAll(async () => {
      created = await createOrganizationWithOwner(owner, "Detailed Org");
      await addMember(owner, created.id, member, "member");
      const team = await owner.client.post("/api/auth/organization/create-team", { name: "Helpdesk", organizationId: created.id });
      expect(team.status).toBe(200);
      helpdeskId = team.data.id;
      for (const user of [owner, member]) {
        const added = await owner.client.post("/api/auth/organization/add-team-member", { teamId: helpdeskId, userId: user.id, organizationId: created.id });
        expect(added.status).toBe(200);
      }
      const invitation = await owner.client.post("/api/auth/organization/invite-member", { email: invitedEmail, role: "admin", organizationId: created.id });
      expect(invitation.status).toBe(200);
      invitationId = invitation.data.id;
    });

    it("GET /api/admin/organizations lists an organization with its member count and plan", async () => {
      const response = await admin.client.get(`/api/admin/organizations?q=${encodeURIComponent(created.slug)}`);
      expect(response.status).toBe(200);
      expect(response.data).toEqual({
        organizations: [
          {
            id: created.id,
            name: "Detailed Org",
            slug: created.slug,
            createdAt: expect.any(String),
            memberCount: 2,
            plan: { key: "free", name: "Free" },
            status: null,
          },
        ],
        total: 1,
        limit: 25,
        offset: 0,
      });
    });

    it("GET /api/admin/organizations/:organizationId shows members, teams with member counts, and pending invitations with their inviter", async () => {
      const response = await admin.client.get(`/api/admin/organizations/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.data.organization).toEqual({ id: created.id, name: "Detailed Org", slug: created.slug, logo: null, createdAt: expect.any(String) });
      expect(
        response.data.members.map((row: { userId: string; name: string; email: string; role: string }) => [row.userId, row.name, row.email, row.role]),
      ).toEqual([
        [owner.id, owner.name, owner.email, "owner"],
        [member.id, member.name, member.email, "member"],
      ]);
      // The owner joined the default team (named after the organization) when creating it; both were added to Helpdesk.
      expect(response.data.teams).toEqual([
        { id: created.defaultTeamId, name: "Detailed Org", memberCount: 1, createdAt: expect.any(String) },
        { id: helpdeskId, name: "Helpdesk", memberCount: 2, createdAt: expect.any(String) },
      ]);
      expect(response.data.invitations).toEqual([
        { id: invitationId, email: invitedEmail, role: "admin", expiresAt: expect.any(String), inviter: { id: owner.id, name: owner.name } },
      ]);
    });

    it("GET /api/admin/organizations/:organizationId answers 404 'organization not found' for an unknown id", async () => {
      const body = await expectError(await admin.client.get("/api/admin/organizations/no-such-organization"), 404, "organization not found");
      expect(body.code).toBe("NOT_FOUND");
    });
  });
});

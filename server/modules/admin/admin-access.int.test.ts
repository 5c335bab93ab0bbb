import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessMessage, ADMIN, sessionTokenOf, startAdminApp, stopAdminApp, userRow } from "../../test/admin-harness";
import { buildUser, type CreatedOrganization, createVerifiedUser } from "../../test/factories";
import { signInOnNewClient, type TestUser } from "../../test/factories";
import { createClient, expectError, type TestClient, type TestResponse } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * The platform-admin feature over HTTP: who reaches better-auth's admin endpoints and the console's routes
 * (the spec's permission matrix, impersonation, configured administrator ids).
 */

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
  ({ app, configured, admin, plain, target, organization } = await startAdminApp());
});

afterAll(stopAdminApp);

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
    send: (client, on) =>
      client.post(`${ADMIN}/set-user-password`, { userId: on.userId, newPassword: buildUser().password }),
  },
  {
    name: "GET /api/auth/admin/get-user",
    resource: "user",
    send: (client, on) => client.get(`${ADMIN}/get-user?id=${encodeURIComponent(on.userId)}`),
  },
];

const CONSOLE_ROUTES: AdminEndpoint[] = [
  { name: "GET /api/admin/users", resource: "user", send: (client) => client.get("/api/admin/users") },
  {
    name: "GET /api/admin/users/:userId",
    resource: "user",
    send: (client, on) => client.get(`/api/admin/users/${on.userId}`),
  },
  {
    name: "GET /api/admin/organizations",
    resource: "organization",
    send: (client) => client.get("/api/admin/organizations"),
  },
  {
    name: "GET /api/admin/organizations/:organizationId",
    resource: "organization",
    send: (client, on) => client.get(`/api/admin/organizations/${on.organizationId}`),
  },
  { name: "GET /api/admin/audit-log", resource: "auditLog", send: (client) => client.get("/api/admin/audit-log") },
  {
    name: "GET /api/admin/audit-log/export",
    resource: "auditLog",
    send: (client) => client.get("/api/admin/audit-log/export"),
  },
  {
    name: "GET /api/admin/billing/organizations/:organizationId",
    resource: "billing",
    send: (client, on) => client.get(`/api/admin/billing/organizations/${on.organizationId}`),
  },
  {
    name: "POST /api/admin/billing/organizations/:organizationId/refunds",
    resource: "billing",
    allowed: { status: 404, message: "order not found" },
    send: (client, on) =>
      client.post(`/api/admin/billing/organizations/${on.organizationId}/refunds`, {
        orderId: "no-such-order",
        reason: "other",
        comment: "Access test",
      }),
  },
  {
    name: "POST /api/admin/billing/organizations/:organizationId/subscription/cancel",
    resource: "billing",
    allowed: { status: 409, message: "This organization has no subscription to cancel." },
    send: (client, on) =>
      client.post(`/api/admin/billing/organizations/${on.organizationId}/subscription/cancel`, {
        when: "now",
        reason: "Access test",
      }),
  },
  {
    name: "POST /api/admin/organizations/:organizationId/owner",
    resource: "organization",
    allowed: { status: 404, message: "No user has the e-mail nobody@example.test." },
    send: (client, on) =>
      client.post(`/api/admin/organizations/${on.organizationId}/owner`, {
        email: "nobody@example.test",
        reason: "Access test",
      }),
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
  it.each(ALL_ENDPOINTS)(
    "$name refuses a signed-in user without the platform role: 403 on resource $resource",
    async ({ send, resource }) => {
      await expectError(await send(plain.client, await targetsOf(target)), 403, accessMessage(resource));
    },
  );

  it.each(CONSOLE_ROUTES)("$name answers 401 without a session", async ({ send }) => {
    await expectError(await send(createClient(app), await targetsOf(target)), 401, "Unauthorized");
  });

  describe("while an admin impersonates a plain user", () => {
    let impersonating: TestClient;

    beforeAll(async () => {
      const impersonated = await createVerifiedUser(app, { label: "Impersonated" });
      impersonating = await signInOnNewClient(app, admin.input);
      const response = await impersonating.post(`${ADMIN}/impersonate-user`, {
        userId: impersonated.id,
        reason: "Reproduce a bug report",
      });
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

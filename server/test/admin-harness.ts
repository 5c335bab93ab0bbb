import { expect } from "vitest";
import {
  createVerifiedUser,
  createOrganizationWithOwner,
  getSession,
  signedInUser,
  signInOnNewClient,
} from "./factories";
import type { CreatedOrganization, TestUser, UserInput } from "./factories";
import { createClient, type TestClient } from "./request";
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from "./test-database";

/**
 * The platform-admin tests' harness: per test file, an app on a real port whose ADMIN_USER_IDS names a configured
 * administrator, with a role admin, a plain user and a target user who owns an organization, started by
 * `startAdminApp` in the file's `beforeAll`; and the helpers that call that app.
 */

export const ADMIN = "/api/auth/admin";
export const accessMessage = (resource: string) => `You are not allowed to access resource: ${resource}`;

export type AdminApp = {
  app: TestApp;
  /** A user whose id is in ADMIN_USER_IDS; their role stays "user". */
  configured: TestUser;
  /** A user with the platform role "admin". */
  admin: TestUser;
  /** A user with the platform role "user". */
  plain: TestUser;
  /** The user the refused calls name, owner of `organization`. */
  target: TestUser;
  organization: CreatedOrganization;
};

let database: TestDatabase;
let app: TestApp;

export async function startAdminApp(): Promise<AdminApp> {
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
  // Listening, with the development identity provider on: the tests' social sign-ins go through it.
  app = await createTestApp({
    database,
    listen: true,
    env: { ADMIN_USER_IDS: configuredId, DEV_IDENTITY_PROVIDER: "true" },
  });
  const configured = await signedInUser(configuredInput, await signInOnNewClient(app, configuredInput));
  expect(configured.id).toBe(configuredId);
  const [admin, plain, target] = await Promise.all([
    createVerifiedUser(app, { label: "Role Admin" }),
    createVerifiedUser(app, { label: "Plain User" }),
    createVerifiedUser(app, { label: "Target User" }),
  ]);
  await setRoleAs(configured, admin.id, "admin");
  const organization = await createOrganizationWithOwner(target, "Target Org");
  return { app, configured, admin, plain, target, organization };
}

export async function stopAdminApp(): Promise<void> {
  await app?.close();
  await database?.drop();
}

/** set-role through the API, checked. */
export async function setRoleAs(actor: { client: TestClient }, userId: string, role: string): Promise<void> {
  const response = await actor.client.post(`${ADMIN}/set-role`, { userId, role });
  if (response.status !== 200) throw new Error(`set-role answered ${response.status} ${JSON.stringify(response.data)}`);
}

export const userRow = (id: string) => app.db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
export const signInByEmail = (input: Pick<UserInput, "email" | "password">) =>
  createClient(app).post("/api/auth/sign-in/email", { email: input.email, password: input.password });
export const signInByUsername = (input: Pick<UserInput, "username" | "password">) =>
  createClient(app).post("/api/auth/sign-in/username", { username: input.username, password: input.password });
export const sessionTokenOf = async (client: TestClient) => (await getSession(client))!.session.token;

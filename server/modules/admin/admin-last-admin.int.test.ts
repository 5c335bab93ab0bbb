import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessMessage, ADMIN } from "../../test/admin-harness";
import { createVerifiedUser, getSession, signedInUser, signInOnNewClient, type TestUser } from "../../test/factories";
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from "../../test/test-database";

/**
 * The platform-admin feature over HTTP: the last platform admin cannot be demoted away.
 */

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
    configuredAdmin = await signedInUser(
      configuredAdmin.input,
      await signInOnNewClient(configuredApp, configuredAdmin.input),
    );
  });

  afterAll(async () => {
    await configuredApp?.close();
    await plainApp?.close();
    await lastDatabase?.drop();
  });

  /** Each test starts from the platform roles it names, written directly. */
  async function arrangeRoles(roles: Array<[TestUser, string]>): Promise<void> {
    for (const [user, role] of roles)
      await plainApp.db.updateTable("user").set({ role }).where("id", "=", user.id).execute();
  }
  const roleOf = async (user: TestUser) =>
    (await plainApp.db.selectFrom("user").select("role").where("id", "=", user.id).executeTakeFirstOrThrow()).role;

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
    const refused = answers
      .filter((answer) => answer.status !== 200)
      .map((answer) => ({ status: answer.status, message: answer.data?.message }));
    expect({ admins, succeeded: answers.length - refused.length }).toEqual({ admins: 1, succeeded: 1 });
    // Refused by the rule, or by the access check when the caller has already been demoted by the other call.
    expect([
      { status: 400, message: "The last platform admin cannot be demoted, banned or deleted" },
      { status: 403, message: accessMessage("user") },
    ]).toContainEqual(refused[0]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startAdminApp, stopAdminApp, userRow } from "../../test/admin-harness";
import { buildUser, createVerifiedUser, getSession, type TestUser } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * The platform-admin feature over HTTP: our rules on better-auth's admin endpoints (no catch-all update-user,
 * no admin acting on themself), and that no user-facing endpoint sets a platform role, a ban or a verified e-mail.
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

beforeAll(async () => {
  ({ app, configured, admin, plain, target } = await startAdminApp());
});

afterAll(stopAdminApp);

describe("rules of the admin endpoints", () => {
  it("better-auth's catch-all update-user is switched off, for configured administrators too: 404", async () => {
    const message =
      "No endpoint POST /api/auth/admin/update-user: use set-role, ban-user, unban-user or set-user-password";
    for (const actor of [plain, admin, configured]) {
      await expectError(
        await actor.client.post(`${ADMIN}/update-user`, { userId: target.id, data: { name: "Renamed By Admin" } }),
        404,
        message,
      );
    }
    expect((await userRow(target.id))?.name).not.toBe("Renamed By Admin");
  });

  it("an admin cannot ban, demote or delete themself, and stays an admin", async () => {
    await expectError(
      await admin.client.post(`${ADMIN}/ban-user`, { userId: admin.id, banReason: "Testing" }),
      400,
      "You cannot ban yourself",
    );
    await expectError(
      await admin.client.post(`${ADMIN}/remove-user`, { userId: admin.id }),
      400,
      "You cannot remove yourself",
    );
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
    const body = await expectError(
      await user.client.post("/api/auth/update-user", { [field]: value }),
      400,
      `${field}: Unknown field`,
    );
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(await fieldsOf(user.id)).toEqual(before);
  });

  it.each([
    ["role", "admin"],
    ["banned", false],
    ["emailVerified", true],
  ] as const)("POST /api/auth/sign-up/email with %s: 400, and no user is created", async (field, value) => {
    const input = buildUser({ label: "Self Made" });
    const body = await expectError(
      await createClient(app).post("/api/auth/sign-up/email", { ...input, [field]: value }),
      400,
      `${field}: Unknown field`,
    );
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(await app.db.selectFrom("user").select("id").where("email", "=", input.email).execute()).toEqual([]);
  });
});

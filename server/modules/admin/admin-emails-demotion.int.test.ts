import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildUser, createVerifiedUser, type TestUser } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-database";
import { changePlatformRoleFromCommandLine } from "./index";

/** A platform admin named in ADMIN_EMAILS stays one: demoting them is refused, and nothing is logged. */

const listedEmail = buildUser().email;
const MESSAGE = `${listedEmail} is a platform admin through ADMIN_EMAILS: remove the address from that setting first`;

let app: TestApp;
let listed: TestUser;
let other: TestUser;

beforeAll(async () => {
  app = await createTestApp({ env: { ADMIN_EMAILS: listedEmail } });
  listed = await createVerifiedUser(app, { label: "Listed Admin", email: listedEmail });
  other = await createVerifiedUser(app, { label: "Other Admin" });
  const granted = await listed.client.post("/api/auth/admin/set-role", { userId: other.id, role: "admin" });
  expect(granted.status).toBe(200);
});

afterAll(async () => {
  await app?.close();
});

async function roleOf(userId: string) {
  return (await app.db.selectFrom("user").select("role").where("id", "=", userId).executeTakeFirstOrThrow()).role;
}

async function roleChangesOf(userId: string) {
  const changes = app.db.selectFrom("audit_event").select("details").where("action", "=", "user.role_changed");
  return changes.where("target_id", "=", userId).execute();
}

describe("demoting an admin named in ADMIN_EMAILS", () => {
  test("admin/set-role to user: 400 naming ADMIN_EMAILS; the role and the audit log are unchanged", async () => {
    const response = await other.client.post("/api/auth/admin/set-role", { userId: listed.id, role: "user" });
    expect(response.status).toBe(400);
    const namesSetting = expect.stringContaining("ADMIN_EMAILS");
    expect(response.data).toMatchObject({ code: "ADMIN_EMAILS_ADMIN", message: namesSetting });
    expect(await roleOf(listed.id)).toBe("admin");
    expect(await roleChangesOf(listed.id)).toEqual([]);
  });

  test("a role that keeps admin is still accepted", async () => {
    const body = { userId: listed.id, role: ["admin", "user"] };
    const response = await other.client.post("/api/auth/admin/set-role", body);
    expect(response.status).toBe(200);
  });

  test("npm run admin -- revoke: refused, naming ADMIN_EMAILS; the role and the audit log are unchanged", async () => {
    const before = await roleChangesOf(listed.id);
    const input = { action: "revoke", email: listedEmail } as const;
    const revoke = changePlatformRoleFromCommandLine(app.db, app.config.adminUserIds, input, app.config.adminEmails);
    await expect(revoke).rejects.toThrow(MESSAGE);
    expect(await roleOf(listed.id)).toContain("admin");
    expect(await roleChangesOf(listed.id)).toEqual(before);
  });
});

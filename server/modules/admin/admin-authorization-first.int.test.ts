import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildUser, createVerifiedUser, type TestUser } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";

/** The spec's admin call paths: who may call comes before what was sent; a ban or impersonation needs no reason. */

const ADMIN = "/api/auth/admin";
const adminEmail = buildUser().email;

let app: TestApp;
let admin: TestUser;
let plain: TestUser;

beforeAll(async () => {
  app = await createTestApp({ env: { ADMIN_EMAILS: adminEmail } });
  admin = await createVerifiedUser(app, { label: "Listed Admin", email: adminEmail });
  plain = await createVerifiedUser(app, { label: "Plain User" });
});

afterAll(async () => {
  await app?.close();
});

/** Bodies no admin endpoint takes: empty, unknown fields, wrong types. */
const BAD_BODIES: unknown[] = [{}, { userId: 42, banReason: "" }, { nonsense: true }];

/** Each admin endpoint with the resource its refusal names. */
const ENDPOINTS: Array<[string, "user" | "session"]> = [
  ["ban-user", "user"],
  ["unban-user", "user"],
  ["impersonate-user", "user"],
  ["set-role", "user"],
  ["create-user", "user"],
  ["remove-user", "user"],
  ["set-user-password", "user"],
  ["list-user-sessions", "session"],
  ["revoke-user-session", "session"],
  ["revoke-user-sessions", "session"],
];

async function auditEntries(action: string, targetId: string) {
  const entries = app.db.selectFrom("audit_event").select(["reason", "actor_id"]).where("action", "=", action);
  return entries.where("target_id", "=", targetId).execute();
}

describe("authorization before validation", () => {
  test.each(ENDPOINTS)("a non-admin calling admin/%s with any body gets the spec's 403", async (endpoint, resource) => {
    for (const body of BAD_BODIES) {
      const response = await plain.client.post(`${ADMIN}/${endpoint}`, body);
      await expectError(response, 403, `You are not allowed to access resource: ${resource}`);
    }
  });

  test("without a session, admin/ban-user with any body is 401 Unauthorized", async () => {
    for (const body of BAD_BODIES) expect((await createClient(app).post(`${ADMIN}/ban-user`, body)).status).toBe(401);
  });

  test("an admin with a bad body still gets the validation answer", async () => {
    const response = await admin.client.post(`${ADMIN}/ban-user`, { userId: 42 });
    expect(response.status).toBe(400);
    expect(response.data).toMatchObject({ code: "VALIDATION_ERROR" });
  });
});

describe("ban and impersonation as the spec has them, without a reason", () => {
  test("admin/ban-user {userId} bans; the audit entry records no reason", async () => {
    const target = await createVerifiedUser(app, { label: "Banned Without Reason" });
    const response = await admin.client.post(`${ADMIN}/ban-user`, { userId: target.id });
    expect(response.status).toBe(200);
    expect(response.data).toMatchObject({ user: { id: target.id, banned: true } });
    expect(await auditEntries("user.banned", target.id)).toEqual([{ reason: null, actor_id: admin.id }]);
  });

  test("admin/impersonate-user {userId} starts the impersonation; the audit entry records no reason", async () => {
    const target = await createVerifiedUser(app, { label: "Impersonated Without Reason" });
    const impersonating = await createVerifiedUser(app, { label: "Second Admin" });
    await app.db.updateTable("user").set({ role: "admin" }).where("id", "=", impersonating.id).execute();
    const response = await impersonating.client.post(`${ADMIN}/impersonate-user`, { userId: target.id });
    expect(response.status).toBe(200);
    expect(response.data).toMatchObject({ user: { id: target.id } });
    const entries = await auditEntries("user.impersonation_started", target.id);
    expect(entries).toEqual([{ reason: null, actor_id: impersonating.id }]);
  });
});

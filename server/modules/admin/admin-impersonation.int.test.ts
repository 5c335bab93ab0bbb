import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, sessionTokenOf, setRoleAs, startAdminApp, stopAdminApp } from "../../test/admin-harness";
import { createVerifiedUser, getSession, signInOnNewClient, type TestUser } from "../../test/factories";
import { expectError } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * The platform-admin feature over HTTP: impersonation, who may be impersonated and for how long.
 */

let app: TestApp;
/** A user whose id is in ADMIN_USER_IDS; their role stays "user". */
let configured: TestUser;
/** A user with the platform role "admin". */
let admin: TestUser;

beforeAll(async () => {
  ({ app, configured, admin } = await startAdminApp());
});

afterAll(stopAdminApp);

describe("impersonation", () => {
  let otherAdmin: TestUser;
  let impersonated: TestUser;

  beforeAll(async () => {
    [otherAdmin, impersonated] = await Promise.all([
      createVerifiedUser(app, { label: "Other Admin" }),
      createVerifiedUser(app, { label: "Impersonated" }),
    ]);
    await setRoleAs(configured, otherAdmin.id, "admin");
  });

  it("is refused for an admin, by role or by configured id: 403 'You cannot impersonate admins'", async () => {
    const browser = await signInOnNewClient(app, admin.input);
    for (const userId of [otherAdmin.id, configured.id]) {
      const body = await expectError(
        await browser.post(`${ADMIN}/impersonate-user`, { userId, reason: "Curious" }),
        403,
        "You cannot impersonate admins",
      );
      expect(body.code).toBe("YOU_CANNOT_IMPERSONATE_ADMINS");
    }
    expect((await getSession(browser))?.user.id).toBe(admin.id);
  });

  it("lasts at most an hour, shows the admin in get-session, and stop-impersonating gives the admin their session back", async () => {
    const browser = await signInOnNewClient(app, admin.input);
    const adminToken = await sessionTokenOf(browser);
    expect(
      (await browser.post(`${ADMIN}/impersonate-user`, { userId: impersonated.id, reason: "Support ticket 7" })).status,
    ).toBe(200);

    const current = (await browser.get("/api/auth/get-session")).data;
    expect(current.user.id).toBe(impersonated.id);
    expect(current.session.impersonatedBy).toBe(admin.id);
    const row = await app.db
      .selectFrom("session")
      .selectAll()
      .where("token", "=", current.session.token)
      .executeTakeFirstOrThrow();
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
    expect(
      await app.db.selectFrom("session").select("id").where("token", "=", current.session.token).execute(),
    ).toEqual([]);
    // The user's own session was never touched.
    expect((await getSession(impersonated.client))?.user.id).toBe(impersonated.id);
  });
});

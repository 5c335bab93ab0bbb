import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, signInByEmail, signInByUsername, startAdminApp, stopAdminApp, userRow } from "../../test/admin-harness";
import { locationOf, signInWithDevProvider } from "../../test/dev-identity";
import { createVerifiedUser, getSession, signInOnNewClient, type TestUser } from "../../test/factories";
import { createClient, expectError } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * The platform-admin feature over HTTP: what a ban (timed, permanent, expired, lifted) means for the user.
 */

let app: TestApp;
/** A user with the platform role "admin". */
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startAdminApp());
});

afterAll(stopAdminApp);

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

  const ban = (userId: string, extra: Record<string, unknown> = {}) =>
    admin.client.post(`${ADMIN}/ban-user`, { userId, banReason: "Spam", ...extra });
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

    expect((await expectError(await signInByEmail(permanent.input), 403, "Your account is banned.")).code).toBe(
      "BANNED_USER",
    );
    expect((await expectError(await signInByUsername(permanent.input), 403, "Your account is banned.")).code).toBe(
      "BANNED_USER",
    );

    // The provider vouches for the same verified e-mail, so the identity would link to the account: the ban stops it.
    const browser = createClient(app);
    const answer = await signInWithDevProvider(browser, {
      name: permanent.name,
      email: permanent.email,
      emailVerified: true,
    });
    const location = new URL(locationOf(answer));
    expect(`${location.origin}${location.pathname}`).toBe(`${app.config.baseUrl}/auth/error`);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: "BANNED_USER",
      error_description: "Your account is banned.",
    });
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

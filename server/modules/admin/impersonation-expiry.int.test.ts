import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildUser, createVerifiedUser, type TestUser } from "../../test/factories";
import { createClient, type TestClient } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";
import { IMPERSONATION_SECONDS } from "./index";

/** An impersonation ends on time: no cookie a client keeps or drops makes better-auth refresh or extend it. */

const adminEmail = buildUser().email;

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  app = await createTestApp({ env: { ADMIN_EMAILS: adminEmail } });
  admin = await createVerifiedUser(app, { label: "Listed Admin", email: adminEmail });
});

afterAll(async () => {
  await app?.close();
});

/** The cookies an impersonation leaves in the admin's browser, by name. */
function cookiesOf(client: TestClient): Map<string, string> {
  const pairs = (client.jar.header() ?? "").split("; ").filter(Boolean);
  return new Map(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
}

/** Starts an impersonation in a browser of the admin's own; returns its cookies and when it must end. */
async function impersonate(): Promise<{ cookies: Map<string, string>; endsAt: number; userId: string }> {
  const target = await createVerifiedUser(app, { label: "Impersonated" });
  const browser = createClient(app);
  for (const [name, value] of cookiesOf(admin.client)) browser.jar.set(name, value);
  const startedAt = Date.now();
  const response = await browser.post("/api/auth/admin/impersonate-user", { userId: target.id, reason: "Ticket #7" });
  expect(response.status).toBe(200);
  return { cookies: cookiesOf(browser), endsAt: startedAt + IMPERSONATION_SECONDS * 1000, userId: target.id };
}

/** The Max-Age of each cookie a response sets, by name. */
function maxAges(setCookies: string[]): Map<string, number> {
  const ages = new Map<string, number>();
  for (const header of setCookies) {
    const name = header.slice(0, header.indexOf("="));
    const maxAge = /;\s*max-age=(-?\d+)/i.exec(header)?.[1];
    if (maxAge !== undefined) ages.set(name, Number(maxAge));
  }
  return ages;
}

describe("impersonation expiry", () => {
  test("the impersonation leaves a session token, a dont_remember and an admin_session cookie", async () => {
    const names = [...(await impersonate()).cookies.keys()];
    const has = (part: string) => names.some((name) => name.endsWith(part));
    expect(["session_token", "dont_remember", "admin_session"].filter(has)).toHaveLength(3);
  });

  test.each(["session_token", "session_data", "dont_remember", "admin_session", "nothing"])(
    "dropping %s: reading the session never moves its end, in the database or in a cookie",
    async (dropped) => {
      const { cookies, endsAt, userId } = await impersonate();
      const client = createClient(app);
      for (const [name, value] of cookies) if (!name.endsWith(dropped)) client.jar.set(name, value);

      for (const path of ["/api/auth/get-session", "/api/auth/organization/list", "/api/auth/get-session"]) {
        const response = await client.get(path);
        // Without its token there is no session to read: organization/list then answers 401.
        expect(response.status).toBe(dropped === "session_token" && path.includes("organization") ? 401 : 200);
        for (const [name, maxAge] of maxAges(response.headers.getSetCookie())) {
          expect({ name, endsBy: Date.now() + maxAge * 1000 <= endsAt + 1000 }).toEqual({ name, endsBy: true });
        }
      }
      const impersonations = app.db.selectFrom("session").select("expiresAt").where("impersonatedBy", "is not", null);
      const sessions = await impersonations.where("userId", "=", userId).execute();
      expect(sessions).toHaveLength(1);
      expect(new Date(sessions[0]!.expiresAt).getTime()).toBeLessThanOrEqual(endsAt + 1000);
    },
  );
});

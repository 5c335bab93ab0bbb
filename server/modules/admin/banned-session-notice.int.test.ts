import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_ENDED_HEADER } from "../../../common/ban-message";
import { ADMIN, startAdminApp, stopAdminApp } from "../../test/admin-harness";
import { createVerifiedUser, signInOnNewClient, type TestUser } from "../../test/factories";
import type { TestClient } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/**
 * A ban signs its user out everywhere; a tab still holding one of those sessions asks for it and is told why it
 * has none (the web app's sign-in page then says so). Nobody else is: not a session signed out for another reason,
 * not one whose ban was lifted, not a cookie that names no session.
 */

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startAdminApp());
});
afterAll(stopAdminApp);

async function sessionAnswer(client: TestClient) {
  const response = await client.get("/api/auth/get-session");
  return { status: response.status, body: response.data, ended: response.headers.get(SESSION_ENDED_HEADER) };
}

const ban = (userId: string) => admin.client.post(`${ADMIN}/ban-user`, { userId, banReason: "Spam" });

describe("a session signed out by a ban", () => {
  it("answers no session, saying a ban ended it, on every device the user was signed in on", async () => {
    const user = await createVerifiedUser(app, { label: "Banned Tab" });
    const otherDevice = await signInOnNewClient(app, user.input);
    expect((await ban(user.id)).status).toBe(200);

    expect(await sessionAnswer(user.client)).toEqual({ status: 200, body: null, ended: "banned" });
    expect(await sessionAnswer(otherDevice)).toEqual({ status: 200, body: null, ended: "banned" });
  });

  it("says nothing once the ban is lifted", async () => {
    const user = await createVerifiedUser(app, { label: "Lifted Ban" });
    expect((await ban(user.id)).status).toBe(200);
    expect((await admin.client.post(`${ADMIN}/unban-user`, { userId: user.id })).status).toBe(200);

    expect(await sessionAnswer(user.client)).toEqual({ status: 200, body: null, ended: null });
  });

  it("says nothing for a session signed out otherwise, nor for a user who was never banned", async () => {
    const user = await createVerifiedUser(app, { label: "Revoked Tab" });
    const otherDevice = await signInOnNewClient(app, user.input);
    const revoked = await admin.client.post(`${ADMIN}/revoke-user-sessions`, { userId: user.id });
    expect(revoked.status).toBe(200);

    expect(await sessionAnswer(otherDevice)).toEqual({ status: 200, body: null, ended: null });
    const signedIn = await createVerifiedUser(app, { label: "Signed In" });
    expect((await sessionAnswer(signedIn.client)).ended).toBeNull();
  });
});

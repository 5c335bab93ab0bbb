import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startAdminApp, stopAdminApp } from "../../test/admin-harness";
import { createVerifiedUser, listMails, readLatestMail, type TestUser } from "../../test/factories";
import { createClient } from "../../test/request";
import type { TestApp } from "../../test/test-database";

/** A banned person cannot sign in, so no password reset mail is sent to them; the answer does not say so. */

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startAdminApp());
});

afterAll(stopAdminApp);

const requestReset = (email: string) =>
  createClient(app).post("/api/auth/request-password-reset", { email, redirectTo: "/reset-password" });

describe("password reset of a banned person", () => {
  it("answers as for anyone but mails nothing while the ban holds, and mails again once it is lifted", async () => {
    const person = await createVerifiedUser(app, { label: "Banned Reset" });
    expect((await admin.client.post(`${ADMIN}/ban-user`, { userId: person.id, banReason: "Spam" })).status).toBe(200);

    const refused = await requestReset(person.input.email);
    expect(refused.status).toBe(200);
    expect(refused.data).toEqual({ status: true, message: expect.any(String) });
    expect((await listMails(app, person.input.email)).map((mail) => mail.subject)).not.toContain(
      "Reset your Atrium password",
    );

    expect((await admin.client.post(`${ADMIN}/unban-user`, { userId: person.id })).status).toBe(200);
    expect((await requestReset(person.input.email)).status).toBe(200);
    const isReset = (mail: { subject: string }) => mail.subject === "Reset your Atrium password";
    expect(isReset(await readLatestMail(app, person.input.email, isReset))).toBe(true);
  });
});

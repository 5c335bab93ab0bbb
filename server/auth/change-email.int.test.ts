import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  buildUser,
  createVerifiedUser,
  extractLink,
  getSession,
  listMails,
  readLatestMail,
  signInOnNewClient,
  type TestUser,
} from "../test/factories";
import { createClient, expectError, randomIp, type TestClient, type TestResponse } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});

afterAll(async () => {
  await app?.close();
});

const LINK_SUBJECT = "Confirm your new e-mail address for Atrium";
const CHANGED_SUBJECT = "Your e-mail address was changed — Atrium";

const changeEmail = (client: TestClient, newEmail: string, callbackURL = "/account") =>
  client.post("/api/auth/change-email", { newEmail, callbackURL });

/** The audit entries of address changes of one user. */
const emailChangeEntries = (userId: string) =>
  app.db
    .selectFrom("audit_event")
    .select(["actor_id", "target_id", "target_label", "details"])
    .where("action", "=", "user.email_changed")
    .where("target_id", "=", userId)
    .execute();

/** Asks for a change to a fresh address and returns it with the link mailed to it. */
async function requestChange(user: TestUser): Promise<{ newEmail: string; link: string }> {
  const newEmail = buildUser().email;
  const response = await changeEmail(user.client, newEmail);
  expect(response.status).toBe(200);
  const mail = await readLatestMail(app, newEmail, (candidate) => candidate.subject === LINK_SUBJECT);
  return { newEmail, link: extractLink(mail) };
}

describe("POST /api/auth/change-email", () => {
  test("mails a link to the new address, and nothing changes until it is opened", async () => {
    const user = await createVerifiedUser(app);
    const newEmail = buildUser().email;

    const response = await changeEmail(user.client, newEmail);
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ status: true });

    const mail = await readLatestMail(app, newEmail, (candidate) => candidate.subject === LINK_SUBJECT);
    expect(mail.text).toContain(`from ${user.email} to ${newEmail}`);
    const link = new URL(extractLink(mail), app.config.baseUrl);
    expect(link.pathname).toBe("/api/auth/verify-email");
    expect(link.searchParams.get("callbackURL")).toBe("/email-changed?next=%2Faccount");

    expect((await getSession(user.client))?.user.email).toBe(user.email);
    expect(await listMails(app, user.email)).not.toContainEqual(expect.objectContaining({ subject: CHANGED_SUBJECT }));
    expect(await emailChangeEntries(user.id)).toEqual([]);
  });

  test("opening the link changes the address, keeps the sessions, tells the old address, audits it once", async () => {
    const user = await createVerifiedUser(app);
    const otherDevice = await signInOnNewClient(app, user.input);
    const { newEmail, link } = await requestChange(user);

    // Opened in the browser that asked: it lands on the page that says the address changed.
    const opened = await user.client.get(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("/email-changed?next=%2Faccount");

    for (const client of [user.client, otherDevice]) {
      expect((await getSession(client))?.user).toMatchObject({ id: user.id, email: newEmail, emailVerified: true });
    }
    const notice = await readLatestMail(app, user.email, (candidate) => candidate.subject === CHANGED_SUBJECT);
    expect(notice.text).toContain(`changed from ${user.email} to ${newEmail}`);
    const entries = await emailChangeEntries(user.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: user.id, target_id: user.id, target_label: newEmail });
    expect(JSON.parse(String(entries[0]?.details))).toEqual({ from: user.email, to: newEmail });

    // The new address signs in; the old one no longer does.
    await signInOnNewClient(app, { email: newEmail, password: user.input.password });
    const old = await createClient(app).post("/api/auth/sign-in/email", {
      email: user.email,
      password: user.input.password,
    });
    expect(old.status).toBe(401);

    // The link works once: a second opening says it is invalid and changes nothing more.
    const again = await user.client.get(link);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/email-changed?next=%2Faccount&error=INVALID_TOKEN");
    expect(await emailChangeEntries(user.id)).toHaveLength(1);
    expect(
      (await listMails(app, user.email)).filter((candidate) => candidate.subject === CHANGED_SUBJECT),
    ).toHaveLength(1);
  });

  test("a link opened where nobody is signed in changes the address and signs nobody in", async () => {
    const user = await createVerifiedUser(app);
    const { newEmail, link } = await requestChange(user);

    const elsewhere = createClient(app);
    const opened = await elsewhere.get(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe("/email-changed?next=%2Faccount");
    expect(await getSession(elsewhere)).toBeNull();
    expect((await getSession(user.client))?.user.email).toBe(newEmail);
  });

  test("a taken address gets the same answer as a free one, mails nobody and changes nothing", async () => {
    const owner = await createVerifiedUser(app);
    const asker = await createVerifiedUser(app);
    const ownersMails = (await listMails(app, owner.email)).length;
    const free = await changeEmail(asker.client, buildUser().email);

    const taken = await changeEmail(asker.client, owner.email.toUpperCase());
    expect(taken.status).toBe(free.status);
    expect(taken.data).toEqual(free.data);
    expect(taken.data).toEqual({ status: true });

    expect(await listMails(app, owner.email)).toHaveLength(ownersMails);
    expect(await listMails(app, asker.email)).not.toContainEqual(expect.objectContaining({ subject: CHANGED_SUBJECT }));
    expect((await getSession(asker.client))?.user.email).toBe(asker.email);
    expect((await getSession(owner.client))?.user.email).toBe(owner.email);
    expect(await emailChangeEntries(asker.id)).toEqual([]);
  });

  test("the address the account already has is refused (400 EMAIL_UNCHANGED), in any case, with no mail", async () => {
    const user = await createVerifiedUser(app);
    for (const newEmail of [user.email, user.email.toUpperCase()]) {
      const response = await changeEmail(user.client, newEmail);
      const body = await expectError(response, 400, "The new e-mail address is the one the account already has");
      expect(body.code).toBe("EMAIL_UNCHANGED");
    }
    expect(await listMails(app, user.email)).not.toContainEqual(expect.objectContaining({ subject: LINK_SUBJECT }));
  });

  test("without a session it answers 401 and mails nothing", async () => {
    const newEmail = buildUser().email;
    const response = await changeEmail(createClient(app), newEmail);
    expect(response.status).toBe(401);
    expect(response.data).toMatchObject({ code: "UNAUTHORIZED" });
    expect(await listMails(app, newEmail)).toEqual([]);
  });

  test("an address may ask for 3 changes in 5 minutes, then 429 with Retry-After", async () => {
    const user = await createVerifiedUser(app);
    const ip = randomIp();
    const statuses: number[] = [];
    let limited: TestResponse | undefined;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await user.client.post(
        "/api/auth/change-email",
        { newEmail: buildUser().email, callbackURL: "/account" },
        { ip },
      );
      statuses.push(response.status);
      limited = response;
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited?.data).toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });
});

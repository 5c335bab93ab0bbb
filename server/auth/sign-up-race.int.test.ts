import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildUser, listMails } from "../test/factories";
import { createClient, type TestResponse } from "../test/request";
import { createTestApp, type TestApp } from "../test/test-database";

let app: TestApp;
/** A second instance of the same deployment: on SQLite one process runs its transactions one at a time. */
let other: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  other = await createTestApp({ database: app.database });
});

afterAll(async () => {
  await other?.close();
  await app?.close();
});

const ATTEMPTS = 8;
const SIGN_UP = "/api/auth/sign-up/email";
const VERIFY_SUBJECT = /^Verify your e-mail/;
const EXISTING_SUBJECT = "Someone tried to sign up to Atrium with your address";

/** What a client can compare between two sign-up answers: the status, the cookies, the body's shape. */
function shapeOf(response: TestResponse) {
  const body = response.data as { token?: unknown; user?: Record<string, unknown> } | null;
  return {
    status: response.status,
    setsCookie: response.headers.get("set-cookie") !== null,
    token: body?.token,
    userKeys: Object.keys(body?.user ?? {}).sort(),
    emailVerified: body?.user?.emailVerified,
    role: body?.user?.role,
  };
}

describe("sign-ups racing for one new e-mail", () => {
  test("8 at once all answer as for a registered e-mail: one account, the mails of 8 in a row", async () => {
    const email = buildUser().email;
    const signUpOn = (target: TestApp) => createClient(target).post(SIGN_UP, { ...buildUser(), email });
    const answers = await Promise.all(Array.from({ length: ATTEMPTS }, (_, i) => signUpOn(i % 2 ? other : app)));

    // The same e-mail once more, now that it is registered: the answer a known address gets.
    const known = await signUpOn(app);
    expect(shapeOf(known)).toMatchObject({ status: 200, setsCookie: false, token: null });
    for (const answer of answers) expect(shapeOf(answer)).toEqual(shapeOf(known));

    const accounts = await app.db.selectFrom("user").select("id").where("email", "=", email).execute();
    expect(accounts).toHaveLength(1);

    // One verification mail (the sign-up that made the account); each other attempt, and the known one, is a
    // sign-up for a registered address and mails its owner the notice that any such sign-up gets.
    const subjects = (await listMails(app, email)).map((mail) => mail.subject);
    expect(subjects.filter((subject) => VERIFY_SUBJECT.test(subject))).toHaveLength(1);
    expect(subjects.filter((subject) => subject === EXISTING_SUBJECT)).toHaveLength(ATTEMPTS);
    expect(subjects).toHaveLength(ATTEMPTS + 1);
  });
});

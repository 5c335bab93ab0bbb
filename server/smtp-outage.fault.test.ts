import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildUser, waitFor, type UserInput } from "./test/factories";
import { SMTP_TIMEOUTS } from "./modules/mail";
import { httpTarget } from "./test/http-target";
import { createClient, type RequestTarget, type TestResponse } from "./test/request";
import { startServerProcess, type ServerProcess } from "./test/server-process";
import { startSmtpSink, type SmtpSink } from "./test/smtp-sink";
import { createTestDatabase, type TestDatabase } from "./test/test-database";

/**
 * How long each of the slow server's answers is delayed: a send (greeting, EHLO, MAIL, RCPT, DATA, the message's
 * end: six answers) then takes at least 6 s.
 */
const SLOW_ANSWER_MS = 1_000;
/**
 * The longest a request that queues mail may take, whatever SMTP does: mail goes to the outbox, never inline. Below
 * a send to the slow server (6 s), above what a sign-up takes on a loaded machine (2.2 s was seen against 2 s).
 */
const REQUEST_BOUND_MS = 4_000;

type OutboxRow = { to_address: string; subject: string; status: string; attempts: number; last_error: string | null };

describe("SMTP down, back, slow and too slow", () => {
  let database: TestDatabase;
  let sink: SmtpSink;
  let server: ServerProcess;
  let target: RequestTarget;
  let sql: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    sink = await startSmtpSink();
    await sink.down();
    // The outbox worker polls every 2 s (its default) and runs at once when a mail is queued.
    server = await startServerProcess({
      name: "atrium",
      env: { DATABASE_URL: database.url, DATA_DIR: database.dataDir, SMTP_URL: sink.url },
    });
    target = httpTarget(server);
  });

  afterAll(async () => {
    await server?.stop();
    await sink?.close();
    await sql?.end();
    await database?.drop();
  });

  const outbox = async (recipients: string[]) =>
    (
      await sql.query<OutboxRow>(
        "SELECT to_address, subject, status, attempts, last_error FROM mail_outbox WHERE to_address = ANY($1)",
        [recipients],
      )
    ).rows;

  /** Runs `send`, asserting that it answered 200 within the bound. */
  async function answersAtOnce(send: () => Promise<TestResponse>): Promise<void> {
    const startedAt = Date.now();
    const response = await send();
    expect(Date.now() - startedAt).toBeLessThan(REQUEST_BOUND_MS);
    expect(response.status, JSON.stringify(response.data)).toBe(200);
  }

  async function signUp(): Promise<UserInput> {
    const user = buildUser();
    await answersAtOnce(() => createClient(target).post("/api/auth/sign-up/email", user));
    return user;
  }

  const requestPasswordReset = (user: UserInput) =>
    answersAtOnce(() =>
      createClient(target).post("/api/auth/request-password-reset", {
        email: user.email,
        redirectTo: "/reset-password",
      }),
    );

  /** Every mail to `recipients` reached the sink exactly once: as many messages per recipient as outbox rows, all sent. */
  async function expectDeliveredExactlyOnce(recipients: string[]): Promise<void> {
    const rows = await outbox(recipients);
    expect(rows.map((row) => row.status)).toEqual(rows.map(() => "sent"));
    for (const recipient of recipients) {
      const queued = rows.filter((row) => row.to_address === recipient).map((row) => row.subject);
      const delivered = sink.messagesTo(recipient).map((message) => /^Subject: (.*)$/m.exec(message.data)?.[1]);
      expect(delivered.sort(), recipient).toEqual(queued.sort());
    }
  }

  test("mail waits in the outbox while SMTP is down or too slow and goes out once it answers, exactly once; a slow SMTP server holds up no request", async () => {
    // SMTP down: sign-ups and a password reset answer as usual; their mails stay pending, retried, none lost.
    const first = await signUp();
    const second = await signUp();
    await requestPasswordReset(first);
    const third = await signUp();
    const recipients = [first.email, second.email, third.email];
    expect((await outbox(recipients)).length).toBe(4);
    // The first attempt runs at once (the worker is nudged), the second 5 s later (retryDelayMs).
    await waitFor(
      async () => (await outbox(recipients)).every((row) => row.attempts >= 2 && row.status === "pending"),
      {
        timeoutMs: 20_000,
        what: "every mail to have failed twice",
      },
    );
    for (const row of await outbox(recipients)) expect(row.last_error).toMatch(/ECONNREFUSED/);
    expect(sink.messages).toEqual([]);

    // SMTP back. The next retry is 10 s or more away (5 s, 10 s, 20 s … after each failure); rather than wait,
    // the test moves the pending mails' next attempt to now: that only simulates the time passing.
    await sink.up();
    await sql.query("UPDATE mail_outbox SET next_attempt_at = $1 WHERE status = 'pending' AND to_address = ANY($2)", [
      new Date().toISOString(),
      recipients,
    ]);
    await waitFor(async () => (await outbox(recipients)).every((row) => row.status === "sent"), {
      timeoutMs: 15_000,
      what: "every mail to be sent",
    });
    // Past more than one poll of the worker: nothing is sent a second time.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await expectDeliveredExactlyOnce(recipients);
    expect(sink.messages).toHaveLength(4);

    // SMTP slow: every answer of the server comes a second late, so a send takes several; requests do not wait on it.
    await sink.slow(SLOW_ANSWER_MS);
    const fourth = await signUp();
    await requestPasswordReset(second);
    const slowRecipients = [fourth.email, second.email];
    await waitFor(async () => (await outbox(slowRecipients)).every((row) => row.status === "sent"), {
      timeoutMs: 60_000,
      what: "the mails queued while SMTP is slow to be sent",
    });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await expectDeliveredExactlyOnce([...recipients, fourth.email]);
    expect(sink.messages).toHaveLength(6);

    // SMTP that answers too late: its greeting comes after the SMTP client's greeting timeout. The request still
    // answers at once; the attempt is given up (the mail stays pending, nothing reached the server) and retried.
    await sink.slow(SMTP_TIMEOUTS.greetingTimeout + 2_000);
    const fifth = await signUp();
    await waitFor(
      async () => (await outbox([fifth.email])).every((row) => row.attempts === 1 && row.status === "pending"),
      {
        timeoutMs: SMTP_TIMEOUTS.greetingTimeout + 10_000,
        what: "the attempt against the unanswering SMTP server to be given up",
      },
    );
    expect((await outbox([fifth.email]))[0]?.last_error).toMatch(/greeting/i);
    expect(sink.messagesTo(fifth.email)).toEqual([]);
    await sink.up();
    await sql.query("UPDATE mail_outbox SET next_attempt_at = $1 WHERE status = 'pending' AND to_address = $2", [
      new Date().toISOString(),
      fifth.email,
    ]);
    await waitFor(async () => (await outbox([fifth.email])).every((row) => row.status === "sent"), {
      timeoutMs: 15_000,
      what: "the mail to be sent",
    });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await expectDeliveredExactlyOnce([...recipients, fourth.email, fifth.email]);
    expect(sink.messages).toHaveLength(7);
    expect(server.hasExited()).toBe(false);
  });
});

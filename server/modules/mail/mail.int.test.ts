import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { toIsoString } from "../../db/database";
import type { MailOutboxTable } from "../../db/schema";
import {
  LEASE_MS,
  MAIL_RETENTION_MS,
  MAX_MAIL_ATTEMPTS,
  retryDelayMs,
  startOutboxWorker,
  type OutboxWorker,
} from "../../jobs/outbox-worker";
import { createLogger, type Logger } from "../../logger";
import { buildUser, listMails, signUp } from "../../test/factories";
import { createClient, readJson } from "../../test/request";
import { createTestApp, type TestApp } from "../../test/test-database";
import {
  claimMail,
  createMailQueue,
  createMailTransport,
  markMailSent,
  SMTP_TIMEOUTS,
  type DevMail,
  type MailTransport,
  type OutgoingMail,
} from "./index";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
});

afterAll(async () => {
  await app?.close();
});

function outgoing(to: string, subject = `Subject ${Math.random().toString(36).slice(2)}`): OutgoingMail {
  return { to, subject, text: `Text of ${subject}`, html: `<p>HTML of ${subject}</p>` };
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

async function outboxRows(target: TestApp, to: string) {
  return target.services.database.db
    .selectFrom("mail_outbox")
    .selectAll()
    .where("to_address", "=", to.toLowerCase())
    .execute();
}

describe("outbox and dev mailbox", () => {
  test("a queued mail is written to mail_outbox, then delivered to the dev mailbox by the worker", async () => {
    const to = buildUser().email;
    const queue = createMailQueue(app.services.database.db, () => undefined);
    const mail = outgoing(to);
    await queue.enqueue(mail);

    const [pending] = await outboxRows(app, to);
    expect(pending).toMatchObject({ status: "pending", attempts: 0, subject: mail.subject });
    expect(await readJson(await createClient(app).get(`/api/dev/mail?to=${encodeURIComponent(to)}`))).toEqual([]);

    const delivered = await listMails(app, to);
    expect(delivered).toHaveLength(1);
    expect(Object.keys(delivered[0]!).sort()).toEqual(["createdAt", "html", "id", "subject", "text", "to"]);
    expect(delivered[0]).toMatchObject({ to, subject: mail.subject, text: mail.text, html: mail.html });
    expect(new Date(delivered[0]!.createdAt).toISOString()).toBe(delivered[0]!.createdAt);

    const [sent] = await outboxRows(app, to);
    expect(sent).toMatchObject({ status: "sent", attempts: 1, last_error: null });
    expect(toIsoString(sent!.sent_at)).not.toBeNull();
  });

  test("auth mail (here: sign-up verification) goes through the outbox", async () => {
    const { input } = await signUp(app);
    const rows = await outboxRows(app, input.email);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.subject).toBe("Verify your e-mail address for Atrium");
  });

  test("GET /api/dev/mail lists newest first (even within one millisecond) and filters by ?to= (any case)", async () => {
    const to = buildUser().email;
    const other = buildUser().email;
    const queue = createMailQueue(app.services.database.db, () => undefined);
    const count = 10;
    for (let index = 0; index < count; index += 1) {
      await queue.enqueue(outgoing(index % 2 === 0 ? to : other, `Mail number ${index}`));
      await app.services.worker.drain();
    }
    const newestFirst = Array.from({ length: count }, (_, index) => `Mail number ${count - 1 - index}`);
    const response = await createClient(app).get(`/api/dev/mail?to=${encodeURIComponent(to.toUpperCase())}`);
    expect(response.status).toBe(200);
    const mails = await readJson<DevMail[]>(response);
    expect(mails.map((mail) => mail.subject)).toEqual(
      newestFirst.filter((subject) => Number(subject.split(" ").pop()) % 2 === 0),
    );
    expect(mails.every((mail) => mail.to === to)).toBe(true);

    const all = await readJson<DevMail[]>(await createClient(app).get("/api/dev/mail?limit=200"));
    expect(all.filter((mail) => mail.to === to || mail.to === other).map((mail) => mail.subject)).toEqual(newestFirst);

    const limited = await readJson<DevMail[]>(
      await createClient(app).get(`/api/dev/mail?to=${encodeURIComponent(to)}&limit=1`),
    );
    expect(limited.map((mail) => mail.subject)).toEqual([`Mail number ${count - 2}`]);
  });

  test("DELETE /api/dev/mail empties the mailbox", async () => {
    const to = buildUser().email;
    await createMailQueue(app.services.database.db, () => undefined).enqueue(outgoing(to));
    expect(await listMails(app, to)).toHaveLength(1);
    const response = await createClient(app).request("/api/dev/mail", { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(await readJson(await createClient(app).get("/api/dev/mail"))).toEqual([]);
  });
});

describe("outbox worker: retries and backoff", () => {
  let workerApp: TestApp;
  const logger = createLogger("silent");

  beforeAll(async () => {
    workerApp = await createTestApp();
    // This app's own worker stays out of the way: each test runs its own worker with its own transport.
    await workerApp.services.worker.stop();
  });

  afterAll(async () => {
    await workerApp?.close();
  });

  /** A transport that fails `failures` times, then delivers; it records every attempt. */
  function flakyTransport(failures: number) {
    const attempts: string[] = [];
    const delivered: OutgoingMail[] = [];
    const transport: MailTransport = {
      kind: "smtp",
      async send(mail) {
        attempts.push(mail.subject);
        if (attempts.length <= failures) throw new Error(`SMTP down (attempt ${attempts.length})`);
        delivered.push(mail);
      },
    };
    return { transport, attempts, delivered };
  }

  async function makeDue(id: string): Promise<void> {
    await workerApp.services.database.db
      .updateTable("mail_outbox")
      .set({ next_attempt_at: new Date(Date.now() - 1_000).toISOString() })
      .where("id", "=", id)
      .execute();
  }

  async function row(id: string) {
    return workerApp.services.database.db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  }

  async function queueOne(worker?: OutboxWorker): Promise<string> {
    const to = buildUser().email;
    await createMailQueue(workerApp.services.database.db, () => worker?.nudge()).enqueue(outgoing(to));
    const [queued] = await outboxRows(workerApp, to);
    return queued!.id;
  }

  test("a transport that fails 3 times is retried with doubling delays, then the mail is sent once", async () => {
    const flaky = flakyTransport(3);
    const worker = startOutboxWorker({
      db: workerApp.services.database.db,
      transport: flaky.transport,
      logger,
      pollMs: 60_000,
    });
    try {
      const id = await queueOne();
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const before = Date.now();
        await worker.drain();
        const after = Date.now();
        const failed = await row(id);
        expect(failed).toMatchObject({
          status: "pending",
          attempts: attempt,
          last_error: `SMTP down (attempt ${attempt})`,
        });
        const nextAttempt = new Date(toIsoString(failed.next_attempt_at)!).getTime();
        expect(nextAttempt).toBeGreaterThanOrEqual(before + retryDelayMs(attempt));
        expect(nextAttempt).toBeLessThanOrEqual(after + retryDelayMs(attempt));

        // Not due yet: the worker leaves it alone.
        await worker.drain();
        expect(flaky.attempts).toHaveLength(attempt);
        await makeDue(id);
      }
      await worker.drain();
      expect(await row(id)).toMatchObject({ status: "sent", attempts: 4, last_error: null });
      expect(flaky.attempts).toHaveLength(4);
      expect(flaky.delivered).toHaveLength(1);

      await makeDue(id);
      await worker.drain();
      expect(flaky.attempts).toHaveLength(4);
    } finally {
      await worker.stop();
    }
  });

  test(`after ${MAX_MAIL_ATTEMPTS} failed attempts the worker gives up and marks the mail failed`, async () => {
    const broken = flakyTransport(Number.POSITIVE_INFINITY);
    const worker = startOutboxWorker({
      db: workerApp.services.database.db,
      transport: broken.transport,
      logger,
      pollMs: 60_000,
    });
    try {
      const id = await queueOne();
      for (let attempt = 1; attempt <= MAX_MAIL_ATTEMPTS; attempt += 1) {
        await makeDue(id);
        await worker.drain();
      }
      expect(await row(id)).toMatchObject({
        status: "failed",
        attempts: MAX_MAIL_ATTEMPTS,
        last_error: `SMTP down (attempt ${MAX_MAIL_ATTEMPTS})`,
      });
      expect(broken.attempts).toHaveLength(MAX_MAIL_ATTEMPTS);

      await makeDue(id);
      await worker.drain();
      expect(broken.attempts).toHaveLength(MAX_MAIL_ATTEMPTS);
    } finally {
      await worker.stop();
    }
  });

  test("two workers on one database deliver each mail exactly once", async () => {
    const sent: string[] = [];
    const transport: MailTransport = { kind: "smtp", send: async (mail) => void sent.push(mail.subject) };
    const first = startOutboxWorker({ db: workerApp.services.database.db, transport, logger, pollMs: 60_000 });
    const second = startOutboxWorker({ db: workerApp.services.database.db, transport, logger, pollMs: 60_000 });
    try {
      const queue = createMailQueue(workerApp.services.database.db, () => undefined);
      const subjects = Array.from({ length: 8 }, (_, index) => `Parallel ${index} ${Math.random()}`);
      for (const subject of subjects) await queue.enqueue(outgoing(buildUser().email, subject));
      await Promise.all([first.drain(), second.drain()]);
      expect([...sent].sort()).toEqual([...subjects].sort());
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  test("a mail left 'sending' by a crashed worker is sent again once its lease has run out", async () => {
    const id = await queueOne();
    await workerApp.services.database.db
      .updateTable("mail_outbox")
      .set({ status: "sending", attempts: 1 })
      .where("id", "=", id)
      .execute();
    const flaky = flakyTransport(0);
    const worker = startOutboxWorker({
      db: workerApp.services.database.db,
      transport: flaky.transport,
      logger,
      pollMs: 60_000,
    });
    try {
      await worker.drain();
      expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
      expect(flaky.delivered).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });

  test("two workers, a short lease and a transport slower than it: the send is cut off inside the lease, so the mail goes out once", async () => {
    const sendTimeoutMs = 50;
    // Well past the send timeout, so a slow test machine cannot let the lease run out before the abort.
    const leaseMs = 1_000;
    const delivered: string[] = [];
    const firstSendStarted = deferred();
    let calls = 0;
    // Like SMTP: the first send would take twice the lease and stops when aborted; later ones are quick.
    const transport: MailTransport = {
      kind: "smtp",
      send: (mail, signal) =>
        new Promise((resolve, reject) => {
          calls += 1;
          firstSendStarted.resolve();
          const finish = setTimeout(
            () => {
              delivered.push(mail.subject);
              resolve();
            },
            calls === 1 ? leaseMs * 2 : 0,
          );
          signal.addEventListener("abort", () => {
            clearTimeout(finish);
            reject(signal.reason as Error);
          });
        }),
    };
    const db = workerApp.services.database.db;
    const first = startOutboxWorker({ db, transport, logger, pollMs: 60_000, sendTimeoutMs, leaseMs });
    const second = startOutboxWorker({ db, transport, logger, pollMs: 60_000, sendTimeoutMs, leaseMs });
    try {
      const id = await queueOne();
      let firstDone = false;
      const firstRun = first.drain().then(() => (firstDone = true));
      await firstSendStarted.promise;
      // The other instance polls for as long as the first one is busy with the mail. Each poll yields to the
      // event loop: SQLite answers synchronously, and a loop of microtasks alone would hold back every timer.
      while (!firstDone) {
        await second.drain();
        await new Promise((resolve) => setImmediate(resolve));
      }
      await firstRun;
      expect(delivered).toEqual([]);
      expect(await row(id)).toMatchObject({
        status: "pending",
        attempts: 1,
        last_error: `send timed out after ${sendTimeoutMs} ms`,
      });

      await makeDue(id);
      await Promise.all([first.drain(), second.drain()]);
      expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
      expect(delivered).toHaveLength(1);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  test.each(["sent", "failed"] as const)(
    "a worker whose lease was taken over cannot mark the mail %s: its late result is dropped with a warning",
    async (outcome) => {
      const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
      const recording: Logger = { ...logger, warn: (message, fields) => void warnings.push({ message, fields }) };
      const sendStarted = deferred();
      const release = deferred();
      const transport: MailTransport = {
        kind: "smtp",
        async send() {
          sendStarted.resolve();
          await release.promise;
        },
      };
      const db = workerApp.services.database.db;
      const worker = startOutboxWorker({ db, transport, logger: recording, pollMs: 60_000 });
      try {
        const to = buildUser().email;
        await createMailQueue(db, () => undefined).enqueue(outgoing(to));
        const [queued] = await outboxRows(workerApp, to);
        const id = queued!.id;
        const run = worker.drain();
        await sendStarted.promise;

        // The first worker's lease runs out (it stalled) and another instance claims the mail.
        await makeDue(id);
        const takenOver = await claimMail(db, { id, attempts: 1 }, LEASE_MS);
        expect(takenOver).toMatchObject({ id, attempts: 2 });
        if (outcome === "sent") release.resolve();
        else release.reject(new Error("SMTP down"));
        await run;

        expect(await row(id)).toMatchObject({ status: "sending", attempts: 2, last_error: null, sent_at: null });
        const leaseLost = warnings.filter((warning) => warning.message.startsWith("mail lease lost"));
        expect(leaseLost).toEqual([{ message: expect.any(String), fields: { id, attempt: 1, outcome } }]);
        expect(JSON.stringify(warnings)).not.toContain(to.toLowerCase());

        expect(await markMailSent(db, takenOver!)).toBe(true);
        expect(await row(id)).toMatchObject({ status: "sent", attempts: 2 });
      } finally {
        release.resolve();
        await worker.stop();
      }
    },
  );

  test("a hung transport is cut off at the send timeout, and the mail is retried later", async () => {
    const sendTimeoutMs = 20;
    const signals: AbortSignal[] = [];
    const delivered: string[] = [];
    let hung = true;
    // Ignores its abort signal on purpose: the worker must not depend on the transport to give up.
    const transport: MailTransport = {
      kind: "smtp",
      send(mail, signal) {
        signals.push(signal);
        if (hung) return new Promise<void>(() => undefined);
        delivered.push(mail.subject);
        return Promise.resolve();
      },
    };
    const worker = startOutboxWorker({
      db: workerApp.services.database.db,
      transport,
      logger,
      pollMs: 60_000,
      sendTimeoutMs,
    });
    try {
      const id = await queueOne();
      const before = Date.now();
      await worker.drain();
      const failed = await row(id);
      expect(failed).toMatchObject({
        status: "pending",
        attempts: 1,
        last_error: `send timed out after ${sendTimeoutMs} ms`,
      });
      expect(new Date(toIsoString(failed.next_attempt_at)!).getTime()).toBeGreaterThanOrEqual(before + retryDelayMs(1));
      expect(signals).toHaveLength(1);
      expect(signals[0]!.aborted).toBe(true);

      hung = false;
      await makeDue(id);
      await worker.drain();
      expect(await row(id)).toMatchObject({ status: "sent", attempts: 2, last_error: null });
      expect(delivered).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });

  test("an SMTP send the worker abandons closes its connection at once, not after nodemailer's own timeouts", async () => {
    const sockets: Socket[] = [];
    const closed = deferred();
    // A server that accepts the connection and never greets: a hung SMTP server.
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.on("close", () => closed.resolve());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const db = workerApp.services.database.db;
    const transport = createMailTransport(db, { from: "Atrium <a@example.test>", smtpUrl: `smtp://127.0.0.1:${port}` });
    // Long enough for the connection to open before the send is abandoned, even while nodemailer loads on a busy
    // machine (at 200 ms the send was once abandoned before any socket opened), and far below the greeting timeout.
    const sendTimeoutMs = 3_000;
    const worker = startOutboxWorker({ db, transport, logger, pollMs: 60_000, sendTimeoutMs });
    const id = await queueOne();
    try {
      const started = Date.now();
      await worker.drain();
      expect(await row(id)).toMatchObject({
        status: "pending",
        attempts: 1,
        last_error: `send timed out after ${sendTimeoutMs} ms`,
      });
      await closed.promise;
      expect(Date.now() - started).toBeLessThan(SMTP_TIMEOUTS.greetingTimeout);
      expect(sockets).toHaveLength(1);
    } finally {
      await worker.stop();
      await db.deleteFrom("mail_outbox").where("id", "=", id).execute();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("the dev-mailbox transport is used when no SMTP_URL is set", () => {
    expect(createMailTransport(workerApp.services.database.db, { from: "Atrium <a@example.test>" }).kind).toBe(
      "dev-mailbox",
    );
    expect(
      createMailTransport(workerApp.services.database.db, {
        from: "Atrium <a@example.test>",
        smtpUrl: "smtp://127.0.0.1:2525",
      }).kind,
    ).toBe("smtp");
  });
});

describe("outbox worker: purge of old mail", () => {
  let purgeApp: TestApp;
  const logger = createLogger("silent");
  const transport: MailTransport = { kind: "smtp", send: async () => undefined };

  beforeAll(async () => {
    purgeApp = await createTestApp();
    await purgeApp.services.worker.stop();
  });

  afterAll(async () => {
    await purgeApp?.close();
  });

  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const expired = () => ago(MAIL_RETENTION_MS + 60_000);
  const recent = () => ago(MAIL_RETENTION_MS - 60_000);
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  async function insertOutboxRow(
    id: string,
    status: MailOutboxTable["status"],
    createdAt: string,
    nextAttemptAt = createdAt,
  ): Promise<void> {
    await purgeApp.services.database.db
      .insertInto("mail_outbox")
      .values({
        id,
        to_address: buildUser().email,
        subject: id,
        text_body: "text",
        html_body: "<p>html</p>",
        status,
        attempts: status === "pending" ? 0 : 1,
        next_attempt_at: nextAttemptAt,
        created_at: createdAt,
        sent_at: status === "sent" ? createdAt : null,
      })
      .execute();
  }

  async function insertDevMail(id: string, createdAt: string): Promise<void> {
    await purgeApp.services.database.db
      .insertInto("dev_mailbox")
      .values({
        id,
        to_address: buildUser().email,
        subject: id,
        text_body: "text",
        html_body: "<p>html</p>",
        created_at: createdAt,
      })
      .execute();
  }

  async function remaining(): Promise<{ outbox: string[]; devMailbox: string[] }> {
    const db = purgeApp.services.database.db;
    const outbox = await db.selectFrom("mail_outbox").select("id").orderBy("id").execute();
    const devMailbox = await db.selectFrom("dev_mailbox").select("id").orderBy("id").execute();
    return { outbox: outbox.map((row) => row.id), devMailbox: devMailbox.map((row) => row.id) };
  }

  test("finished outbox rows and dev mailbox mails past the retention are deleted; unfinished and recent ones are kept", async () => {
    await insertOutboxRow("old-sent", "sent", expired());
    await insertOutboxRow("old-failed", "failed", expired());
    await insertOutboxRow("old-pending", "pending", expired(), inAnHour());
    await insertOutboxRow("old-sending", "sending", expired(), inAnHour());
    await insertOutboxRow("recent-sent", "sent", recent());
    await insertOutboxRow("recent-failed", "failed", recent());
    await insertDevMail("old-dev-mail", expired());
    await insertDevMail("recent-dev-mail", recent());

    const worker = startOutboxWorker({ db: purgeApp.services.database.db, transport, logger, pollMs: 60_000 });
    try {
      await worker.drain();
      expect(await remaining()).toEqual({
        outbox: ["old-pending", "old-sending", "recent-failed", "recent-sent"],
        devMailbox: ["recent-dev-mail"],
      });

      // Not on every run: the next purge is an hour later.
      await insertOutboxRow("old-sent-2", "sent", expired());
      await worker.drain();
      expect((await remaining()).outbox).toContain("old-sent-2");
    } finally {
      await worker.stop();
    }

    // An hour passes; a worker that purges on every run takes over.
    await purgeApp.services.database.db
      .updateTable("job_schedule")
      .set({ next_run_at: new Date().toISOString() })
      .where("name", "=", "mail purge")
      .execute();
    const everyRun = startOutboxWorker({
      db: purgeApp.services.database.db,
      transport,
      logger,
      pollMs: 60_000,
      purgeEveryMs: 0,
    });
    try {
      await everyRun.drain();
      await insertDevMail("old-dev-mail-2", expired());
      await everyRun.drain();
      expect(await remaining()).toEqual({
        outbox: ["old-pending", "old-sending", "recent-failed", "recent-sent"],
        devMailbox: ["recent-dev-mail"],
      });
    } finally {
      await everyRun.stop();
    }
  });
});

describe("dev mailbox in production", () => {
  let productionApp: TestApp;

  beforeAll(async () => {
    productionApp = await createTestApp({
      env: { NODE_ENV: "production", SMTP_URL: "smtp://127.0.0.1:2525", DEV_MAILBOX: undefined },
    });
  });

  afterAll(async () => {
    await productionApp?.close();
  });

  test("is off: /api/dev/mail answers 404", async () => {
    const response = await createClient(productionApp).get("/api/dev/mail");
    expect(response.status).toBe(404);
    expect((await readJson<{ code: string }>(response)).code).toBe("NOT_FOUND");
    expect(await readJson(await createClient(productionApp).get("/api/meta"))).toMatchObject({
      devMailbox: false,
      billingSandbox: false,
    });
  });
});

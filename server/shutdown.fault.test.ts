import { randomUUID } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openDatabase, type DatabaseHandle } from "./db/database";
import { buildUser, waitFor } from "./test/factories";
import { randomIp } from "./test/request";
import { startServerProcess, type ServerProcess } from "./test/server-process";
import { startSmtpSink, type SinkMessage, type SmtpSink } from "./test/smtp-sink";
import { createTestDatabase, type TestDatabase } from "./test/test-database";

/**
 * SIGTERM to a real server under load (server/main.ts): readiness turns false while the server still serves, the
 * listener closes after SHUTDOWN_DELAY_MS, every request in flight gets its normal answer, the mail being sent is
 * finished and marked sent, and the process exits 0.
 */

/**
 * Long enough for a starved server to answer: on two cores shared with fourteen busy processes, the server took
 * over two seconds to read the load below and answer the /readyz sent after the signal, and with a delay of 1.5 s
 * the listener closed first (the test then failed on ECONNREFUSED and its SIGKILL reset every request in flight).
 */
const SHUTDOWN_DELAY_MS = 6_000;
/**
 * Longer than the test can take to answer its load and hold the first mail open. On two cores shared with a dozen
 * busy processes that took over 30 s, the default of both: with the send timeout the worker gave the held mail up
 * and sent the next (the test failed on "Queued 1"); with the shutdown timeout the process exited 1 with requests
 * still in flight ("socket hang up").
 */
const SHUTDOWN_TIMEOUT_MS = 180_000;
const MAIL_SEND_TIMEOUT_MS = 180_000;

type Answer = { status: number; body: string };

/** One request on a connection of its own (no pool), so "refused" means the listener is closed. */
function send(
  port: number,
  path: string,
  options: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.method ?? (body ? "POST" : "GET"),
        agent: false,
        headers: {
          ...(body ? { "content-type": "application/json", origin: `http://127.0.0.1:${port}` } : {}),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        response.on("error", reject);
      },
    );
    // Named, so that a failure says which request it was.
    request.on("error", (error: NodeJS.ErrnoException) =>
      reject(Object.assign(new Error(`${request.method} ${path}: ${error.message}`), { code: error.code })),
    );
    request.end(body);
  });
}

/** A sign-up whose body is sent in two halves: the request stays in flight until `finish()` sends the rest. */
function slowSignUp(port: number, ip: string): { answer: Promise<Answer>; finish(): void } {
  const user = buildUser({ label: "Slow" });
  const body = JSON.stringify({ name: user.name, email: user.email, username: user.username, password: user.password });
  let request!: http.ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/auth/sign-up/email",
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          origin: `http://127.0.0.1:${port}`,
          "x-forwarded-for": ip,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    request.on("error", (error) => reject(new Error(`the slow sign-up: ${error.message}`)));
  });
  request.write(body.slice(0, 10));
  return { answer, finish: () => request.end(body.slice(10)) };
}

const subjectOf = (message: SinkMessage) => /^Subject: (.*)$/m.exec(message.data)?.[1] ?? "";

let database: TestDatabase;
let sink: SmtpSink;
let server: ServerProcess | undefined;
let rows: DatabaseHandle | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  sink = await startSmtpSink();
  // The first mail's send is held until every request in flight is answered: the process can only exit 0 with it
  // marked sent by waiting for it.
  await sink.hold();
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  await rows?.close();
  await sink?.close();
  await database?.drop();
});

test("SIGTERM under load: not ready at once, still serving for the delay, then every request in flight and the mail being sent finish, exit 0", async () => {
  server = await startServerProcess({
    name: "stopping",
    env: {
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SMTP_URL: sink.url,
      DEV_MAILBOX: "false",
      LOG_LEVEL: "info",
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      MAIL_SEND_TIMEOUT_MS: String(MAIL_SEND_TIMEOUT_MS),
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    },
  });
  const { port } = server;
  expect((await send(port, "/readyz")).status).toBe(200);

  // Three mails due at once, so the worker takes them in one batch; the sink holds the first one's send open
  // across the SIGTERM, and the other two must wait for the next start.
  rows = openDatabase(
    database.dialect === "postgres"
      ? { dialect: "postgres", url: database.url }
      : { dialect: "sqlite", file: database.url },
  );
  const queued = Array.from({ length: 3 }, (_, index) => ({
    id: randomUUID(),
    to_address: `queued.${index}@example.test`,
    subject: `Queued ${index}`,
    text_body: "text",
    html_body: "<p>html</p>",
    status: "pending" as const,
    attempts: 0,
    next_attempt_at: new Date(Date.now() - 60_000 + index).toISOString(),
    last_error: null,
    created_at: new Date().toISOString(),
    sent_at: null,
  }));
  await rows.db.insertInto("mail_outbox").values(queued).execute();
  await waitFor(() => sink.messages.length === 1, {
    timeoutMs: 10_000,
    what: "the first queued mail to reach the sink",
  });
  expect(sink.messages.map(subjectOf)).toEqual(["Queued 0"]);
  expect(sink.accepted).toEqual([]);

  // Load: sign-ups and failed sign-ins (each hashes with scrypt), session reads, and sign-ups whose bodies are
  // still being sent when the listener closes.
  const slow = Array.from({ length: 4 }, () => slowSignUp(port, randomIp()));
  const load = [
    ...Array.from({ length: 8 }, () => {
      const user = buildUser({ label: "Loaded" });
      return send(port, "/api/auth/sign-up/email", { json: user, headers: { "x-forwarded-for": randomIp() } }).then(
        (answer) => ({
          kind: "sign-up",
          ...answer,
        }),
      );
    }),
    ...Array.from({ length: 8 }, () =>
      send(port, "/api/auth/sign-in/email", {
        json: { email: buildUser().email, password: "not-the-password" },
        headers: { "x-forwarded-for": randomIp() },
      }).then((answer) => ({ kind: "sign-in", ...answer })),
    ),
    ...Array.from({ length: 8 }, () =>
      send(port, "/api/auth/get-session").then((answer) => ({ kind: "get-session", ...answer })),
    ),
  ];
  const signalledAt = Date.now();
  server.child.kill("SIGTERM");

  // Not ready at once, while new connections are still answered.
  const notReady = await waitFor(
    async () => {
      const answer = await send(port, "/readyz");
      return answer.status === 503 && answer;
    },
    { timeoutMs: SHUTDOWN_DELAY_MS, what: "/readyz to answer 503" },
  );
  expect(JSON.parse(notReady.body)).toMatchObject({
    status: "unavailable",
    code: "SERVICE_UNAVAILABLE",
    message: "The server is shutting down",
    notReady: ["shutdown"],
  });
  expect((await send(port, "/livez")).status).toBe(200);
  expect(Date.now() - signalledAt).toBeLessThan(SHUTDOWN_DELAY_MS);

  // After the delay the listener is closed: a new connection is refused.
  await waitFor(
    async () => {
      const error = await send(port, "/livez").then(
        () => undefined,
        (failure: NodeJS.ErrnoException) => failure,
      );
      return error?.code === "ECONNREFUSED";
    },
    { timeoutMs: SHUTDOWN_DELAY_MS + 5_000, what: "new connections to be refused" },
  );
  expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(SHUTDOWN_DELAY_MS - 100);
  expect(server.hasExited()).toBe(false);

  // The requests still in flight finish with their normal answers.
  for (const request of slow) request.finish();
  const slowAnswers = await Promise.all(slow.map((request) => request.answer));
  expect(
    slowAnswers.map((answer) => answer.status),
    JSON.stringify(slowAnswers),
  ).toEqual([200, 200, 200, 200]);
  const answers = await Promise.all(load);
  for (const answer of answers) {
    const expected = { "sign-up": 200, "sign-in": 401, "get-session": 200 }[answer.kind];
    expect(answer.status, `${answer.kind}: ${answer.body}`).toBe(expected);
  }

  // Every request is answered while the first mail is still being sent; the process waits for it.
  expect(sink.accepted).toEqual([]);
  expect(server.hasExited()).toBe(false);
  sink.release();

  expect(await server.exited).toBe(0);
  expect(server.output.join("\n")).toContain('"message":"shut down"');

  // The mail being sent when SIGTERM came was finished and marked sent; the worker then stopped, leaving the
  // rest of its batch and the sign-ups' mails queued for the next start rather than half sent.
  expect(sink.accepted.map(subjectOf)).toEqual(["Queued 0"]);
  const outbox = await rows.db.selectFrom("mail_outbox").select(["to_address", "status"]).execute();
  expect(outbox.filter((mail) => mail.status === "sent").map((mail) => mail.to_address)).toEqual([
    "queued.0@example.test",
  ]);
  expect(outbox.filter((mail) => mail.status !== "sent").map((mail) => mail.status)).toEqual(
    Array.from({ length: 2 + 12 }, () => "pending"),
  );
});

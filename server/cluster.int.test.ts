import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { request, type IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DevMail } from "./modules/mail";
import { buildUser, extractLink, waitFor } from "./test/factories";
import { createTestDatabase, type TestDatabase } from "./test/test-database";
import { freePort } from "./test/free-port";
import { inheritedEnvironment } from "./test/server-process";

/**
 * `npm start` with WEB_CONCURRENCY=2: the real server (server/main.ts) in a child process, a cluster primary and two
 * workers on one port, on this run's database. Every request opens a connection of its own, so the primary hands
 * consecutive requests to different workers.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

type LogLine = { level: string; message: string; pid: number } & Record<string, unknown>;
type Answer = { status: number; headers: IncomingHttpHeaders; text: string; cookies: string[] };

let database: TestDatabase;
let server: ChildProcess;
let port: number;
const lines: LogLine[] = [];
/** What the processes wrote that is not a log line (a stack trace): shown when something fails. */
const otherOutput: string[] = [];

function output(): string {
  return [...lines.map((line) => JSON.stringify(line)), ...otherOutput].join("\n");
}

function collect(stream: NodeJS.ReadableStream): void {
  createInterface({ input: stream }).on("line", (text) => {
    try {
      lines.push(JSON.parse(text) as LogLine);
    } catch {
      otherOutput.push(text);
    }
  });
}

function waitForLines(
  what: string,
  matches: (line: LogLine) => boolean,
  count = 1,
  timeoutMs = 45_000,
): Promise<LogLine[]> {
  return waitFor(
    () => {
      const found = lines.filter(matches);
      return found.length >= count && found;
    },
    { timeoutMs, what: `${what} in the server's log:\n${output()}` },
  );
}

const METRICS_TOKEN = "metrics-token-for-the-cluster-test";

/** One series' value in a scrape of /metrics, whichever worker answers it. */
async function scrapedSample(series: string): Promise<number> {
  const answer = await call("/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(answer.status).toBe(200);
  const line = answer.text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The dev mailbox's mails to `to`, read a moment later than asked: polling it must not keep both cores busy. */
async function mailsTo(to: string): Promise<DevMail[]> {
  await pause(100);
  return JSON.parse((await call(`/api/dev/mail?to=${encodeURIComponent(to)}`)).text) as DevMail[];
}

/** One request on a connection of its own (no keep-alive), as a new client would send it. */
function call(
  pathname: string,
  options: { json?: unknown; cookie?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        path: pathname,
        method: body === undefined ? "GET" : "POST",
        agent: false,
        timeout: 10_000,
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json", origin: `http://localhost:${port}` }),
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
            cookies: (response.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]!),
          }),
        );
      },
    );
    outgoing.on("timeout", () => outgoing.destroy(new Error(`${pathname} did not answer`)));
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const isListening = (line: LogLine) => line.message === "Atrium is listening";

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  port = await freePort();
  server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: {
      ...inheritedEnvironment(),
      WEB_CONCURRENCY: "2",
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.url,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      DEV_IDENTITY_PROVIDER: "false",
      BILLING_SANDBOX: "false",
      DEV_MAILBOX: "true",
      LOG_LEVEL: "info",
      METRICS_TOKEN,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  collect(server.stdout!);
  collect(server.stderr!);
  // The primary and each worker load the server through tsx: over 30 s when the other integration files keep both
  // cores busy, and over 50 s without a line of log (not even the primary's) on a fresh clone of a loaded machine.
  // The bound catches a hang, not a slow machine.
  await waitForLines("two workers listening", isListening, 2, 150_000);
  await waitFor(async () => (await pause(50), await call("/healthz").catch(() => undefined))?.status === 200, {
    timeoutMs: 5_000,
    what: "/healthz",
  });
}, 180_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    // Only when a test failed before stopping it: its workers exit when the primary does.
    server.kill("SIGKILL");
    await new Promise((resolve) => server.once("exit", resolve));
  }
  await database?.drop();
});

describe("WEB_CONCURRENCY=2", () => {
  test("a primary supervises two worker processes, and requests are answered by both", async () => {
    const [supervising] = await waitForLines("the primary's start", (line) => line.message === "supervising workers");
    expect(supervising).toMatchObject({ pid: server.pid, workers: 2, jobsWorker: 0 });
    const workers = lines.filter(isListening);
    expect(
      workers.map(({ worker, jobs }) => ({ worker, jobs })).sort((a, b) => Number(a.worker) - Number(b.worker)),
    ).toEqual([
      { worker: 0, jobs: true },
      { worker: 1, jobs: false },
    ]);
    const workerPids = workers.map((line) => line.pid);
    expect(new Set(workerPids).size).toBe(2);
    expect(workerPids).not.toContain(server.pid);

    // Each process warns (once a minute) about an X-Forwarded-For from a peer it does not trust: the warnings name
    // the processes that answered.
    for (let index = 0; index < 6; index += 1) {
      expect((await call("/healthz", { headers: { "x-forwarded-for": "203.0.113.7" } })).status).toBe(200);
    }
    const warnings = await waitForLines(
      "a warning from each worker",
      (line) => line.message.startsWith("X-Forwarded-For from a peer"),
      2,
    );
    expect(new Set(warnings.map((line) => line.pid))).toEqual(new Set(workerPids));
  });

  test("one scrape of /metrics counts the requests every worker answered", async () => {
    const series = 'http_requests_total{method="GET",route="/healthz",status="200"}';
    const before = await scrapedSample(series);
    // Each on a connection of its own: the primary hands them to both workers.
    for (let index = 0; index < 10; index += 1) expect((await call("/healthz")).status).toBe(200);
    // Whichever worker answers each scrape, it reports both workers' counts.
    for (let scrape = 0; scrape < 3; scrape += 1) expect(await scrapedSample(series)).toBe(before + 10);
  });

  const user = buildUser({ label: "Cluster" });

  test("a user signs up on one request and signs in on the next ones, whichever worker answers", async () => {
    expect((await call("/api/auth/sign-up/email", { json: user })).status).toBe(200);
    // The verification mail is queued by whichever worker answered and sent by the jobs worker.
    const mail = await waitFor(
      async () => (await mailsTo(user.email)).find((candidate) => candidate.subject.startsWith("Verify")),
      {
        timeoutMs: 10_000,
        what: "the verification mail",
      },
    );
    expect((await call(extractLink(mail))).status).toBeLessThan(400);

    for (let attempt = 0; attempt < 4; attempt += 1) {
      const signIn = await call("/api/auth/sign-in/email", { json: { email: user.email, password: user.password } });
      expect(signIn.status).toBe(200);
      for (let read = 0; read < 2; read += 1) {
        const session = await call("/api/auth/get-session", { cookie: signIn.cookies.join("; ") });
        expect(JSON.parse(session.text)).toMatchObject({ user: { email: user.email, emailVerified: true } });
      }
    }
  });

  test("a worker killed with SIGKILL is replaced, in its slot, while the port keeps answering", async () => {
    const jobsWorker = lines.find((line) => isListening(line) && line.jobs === true)!;
    process.kill(jobsWorker.pid, "SIGKILL");
    await waitForLines(
      "the primary noticing",
      (line) => line.message.startsWith("a worker exited unexpectedly") && line.workerPid === jobsWorker.pid,
    );
    for (let index = 0; index < 4; index += 1) expect((await call("/healthz")).status).toBe(200);

    // Queued while no worker runs the jobs, sent once the replacement polls. Answered by the worker without jobs
    // (unless the replacement already listens), whose nudge does nothing: the mail waits.
    const isReplacement = (line: LogLine) => isListening(line) && line.jobs === true && line.pid !== jobsWorker.pid;
    const other = buildUser({ label: "Cluster" });
    const answeredWithoutJobsWorker = !lines.some(isReplacement);
    expect((await call("/api/auth/sign-up/email", { json: other })).status).toBe(200);
    if (answeredWithoutJobsWorker) expect(await mailsTo(other.email)).toEqual([]);

    const [replacement] = await waitForLines("a replacement", isReplacement);
    expect(replacement).toMatchObject({ worker: 0, jobs: true });
    expect(isRunning(jobsWorker.pid)).toBe(false);
    await waitFor(async () => (await mailsTo(other.email)).length > 0, {
      timeoutMs: 10_000,
      what: "the mail queued while the jobs worker was down",
    });
    for (let index = 0; index < 4; index += 1) expect((await call("/healthz")).status).toBe(200);
  }, 90_000);

  test("SIGTERM to the primary shuts every worker down gracefully, and the primary exits 0 within 10 s", async () => {
    const workerPids = lines
      .filter(isListening)
      .map((line) => line.pid)
      .filter(isRunning);
    expect(workerPids).toHaveLength(2);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      server.once("exit", (code, signal) => resolve({ code, signal })),
    );
    const started = Date.now();
    server.kill("SIGTERM");
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(workerPids.filter(isRunning)).toEqual([]);
    // Each worker ran its own graceful shutdown (main.ts), not a kill.
    expect(
      lines
        .filter((line) => line.message === "shutting down")
        .map((line) => line.pid)
        .sort(),
    ).toEqual([...workerPids].sort());
  });
});

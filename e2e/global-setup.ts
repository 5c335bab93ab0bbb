import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/** Asks the system for a port nobody listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

function tail(file: string, lines = 40): string {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(-lines).join("\n") : "(no server log)";
}

async function waitForHealth(baseUrl: string, server: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null)
      throw new Error(`The server exited with code ${server.exitCode} before it was healthy:\n${tail(logFile)}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server did not answer /healthz within ${timeoutMs} ms:\n${tail(logFile)}`);
}

function stop(server: ChildProcess, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (server.exitCode !== null) return resolve(server.exitCode);
    const timer = setTimeout(() => {
      server.kill("SIGKILL");
      reject(new Error(`The server did not exit within ${timeoutMs} ms of SIGTERM`));
    }, timeoutMs);
    server.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    server.kill("SIGTERM");
  });
}

type RunningServer = { baseUrl: string; databasePath: string; stop(): Promise<void> };

/**
 * Starts one server of the real app: the built web app and the server on a fresh SQLite database in a temporary
 * folder, with every protection on.
 */
async function startServer(): Promise<RunningServer> {
  const port = await freePort();
  // localhost, not 127.0.0.1: WebAuthn takes no IP address as a relying party's id, and passkeys.spec.ts uses them.
  const baseUrl = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-e2e-"));
  mkdirSync(path.join(root, "test-results"), { recursive: true });
  // One log per run (several runs may share the tree), named after the port.
  const logFile = path.join(root, `test-results/e2e-server-${port}.log`);
  const log = createWriteStream(logFile);

  const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: path.join(dataDir, "atrium.sqlite"),
      TRUSTED_PROXIES: "127.0.0.1,::1",
      TRUSTED_ORIGINS: "",
      // The admin console, recovery, billing recovery, ban notice, accessibility and small-screens specs sign up
      // with these to become admins.
      ADMIN_EMAILS: [
        "platform-admin@example.test",
        "a11y-admin@example.test",
        "small-screens-admin@example.test",
        "recovery-admin@example.test",
        "billing-recovery-admin@example.test",
        "ban-notice-admin@example.test",
        "second-factor-a11y-admin@example.test",
        "second-factor-small-admin@example.test",
      ].join(","),
      SMTP_URL: "",
      DEV_MAILBOX: "true",
      REDIS_URL: "",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  let isStopping = false;
  server.once("exit", (code, signal) => {
    if (isStopping) return;
    console.error(
      `\n[e2e] The server stopped during the run (code ${code}, signal ${signal}). Its log, ${logFile}:\n${tail(logFile)}`,
    );
  });

  try {
    // 240 s, a bound for a hang: loading the server through tsx (the SSO modules and the SAML IdP's key included)
    // took over 30 s on a busy two-core machine, and over 90 s beside two fault runs at a raised priority. A server
    // that fails still says so at once (its exit is checked on every try).
    await waitForHealth(baseUrl, server, logFile, 240_000);
  } catch (error) {
    isStopping = true;
    await stop(server, 5_000).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl,
    databasePath: path.join(dataDir, "atrium.sqlite"),
    async stop() {
      isStopping = true;
      const code = await stop(server, 12_000);
      log.end();
      rmSync(dataDir, { recursive: true, force: true });
      if (code !== 0) throw new Error(`The server exited with code ${code} after SIGTERM:\n${tail(logFile)}`);
    },
  };
}

/**
 * Starts two servers once per run and returns the teardown that stops them. The tests tagged WRITES_THE_DATABASE
 * (e2e/database.ts) write their server's database behind its back, which fails a transaction of any other test
 * using that server at that moment: they get a server of their own (playwright.config.ts), and run one at a time
 * there while every other test runs on the first, instead of alone after all the others.
 */
export default async function globalSetup() {
  if (!existsSync(path.join(root, "dist/web/index.html"))) {
    throw new Error("dist/web/index.html is missing: run `npm run build` (or `npm run test:e2e`, which builds it).");
  }
  const servers = await Promise.allSettled([startServer(), startServer()]);
  const started = servers.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = servers.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.all(started.map((server) => server.stop().catch(() => undefined)));
    throw failed.reason;
  }
  const [shared, writers] = started as [RunningServer, RunningServer];
  process.env.ATRIUM_E2E_BASE_URL = shared.baseUrl;
  process.env.ATRIUM_E2E_WRITERS_BASE_URL = writers.baseUrl;
  // For the tests that age a session (e2e/database.ts): 10 minutes of waiting would be too long.
  process.env.ATRIUM_E2E_WRITERS_DATABASE_PATH = writers.databasePath;

  return async () => {
    await Promise.all([shared.stop(), writers.stop()]);
  };
}

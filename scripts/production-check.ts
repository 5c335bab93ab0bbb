// `npm run test:production` (part of `npm test`, after the build): runs the Dockerfile's runtime stage on this machine,
// without a container engine. It copies what the stage copies into a temp folder, runs its RUN lines (the production
// install, devDependencies omitted, from the npm cache when it can), checks that no devDependency got installed, runs
// the migrations as compose.yaml does, starts the image's CMD with its ENV and a production configuration, and checks
// /livez and /readyz, the image's HEALTHCHECK, the web app, a sign-up and its mail over SMTP, and a clean stop on SIGTERM.
// PostgreSQL and Redis when TEST_DATABASE_URL / TEST_REDIS_URL name them (CI), SQLite otherwise.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { staleBuilds } from "./builds.mjs";
import { MIGRATE_COMMAND, runtimeStage } from "./production-path";
import { buildUser, waitFor } from "../server/test/factories";
import { freePort } from "../server/test/free-port";
import { createTestDatabase } from "../server/test/test-database";
import { withTimeout } from "../server/timeout";

const root = path.resolve(import.meta.dirname, "..");
const started = performance.now();
const timings: string[] = [];
let stepStarted = started;
function step(label: string): void {
  const now = performance.now();
  timings.push(`${label}: ${((now - stepStarted) / 1000).toFixed(1)} s`);
  stepStarted = now;
}
function fail(message: string, details = ""): never {
  throw new Error(details ? `${message}\n${details}` : message);
}

/** A minimal SMTP server that keeps every message it is sent: production requires SMTP_URL, and mail must leave. */
function startMailCatcher(port: number): Promise<{ server: Server; messages: string[] }> {
  const messages: string[] = [];
  const server = createServer((socket) => {
    let data: string | undefined;
    socket.write("220 atrium-check ESMTP\r\n");
    createInterface({ input: socket, crlfDelay: Infinity }).on("line", (line) => {
      if (data !== undefined) {
        if (line === ".") {
          messages.push(data);
          data = undefined;
          socket.write("250 queued\r\n");
        } else data += `${line}\n`;
        return;
      }
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === "DATA") {
        data = "";
        socket.write("354 go ahead\r\n");
      } else if (verb === "QUIT") socket.end("221 bye\r\n");
      else socket.write("250 ok\r\n");
    });
    socket.on("error", () => undefined);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve({ server, messages })));
}

async function main(): Promise<void> {
  const stage = runtimeStage(readFileSync(path.join(root, "Dockerfile"), "utf8"));
  const stale = staleBuilds(root);
  if (stale.length > 0)
    fail(`dist/${stale.join(" and dist/")} missing or stale: run \`npm run build\` first (npm test does)`);

  // The image's /app: exactly what the runtime stage copies.
  const work = mkdtempSync(path.join(tmpdir(), "atrium-production-"));
  const app = path.join(work, "app");
  mkdirSync(app);
  const database = await createTestDatabase();
  let mail: { server: Server; messages: string[] } | undefined;
  try {
    for (const { sources, destination } of stage.copies) {
      const intoFolder = destination === "." || destination.endsWith("/") || sources.length > 1;
      for (const source of sources) {
        const from = path.join(root, source);
        const to =
          intoFolder && !statSync(from).isDirectory()
            ? path.join(app, destination, path.basename(source))
            : path.join(app, destination);
        cpSync(from, to, { recursive: true });
      }
    }
    step("copy the runtime stage's files");

    for (const command of stage.runs) {
      const result = spawnSync("sh", ["-c", command], {
        cwd: app,
        encoding: "utf8",
        env: { ...process.env, npm_config_prefer_offline: "true" },
      });
      if (result.status !== 0) fail(`RUN ${command} exited with ${result.status}`, `${result.stdout}${result.stderr}`);
      step(`RUN ${command}`);
    }
    const { devDependencies = {} } = JSON.parse(readFileSync(path.join(app, "package.json"), "utf8")) as {
      devDependencies?: Record<string, string>;
    };
    const installed = Object.keys(devDependencies).filter((name) => existsSync(path.join(app, "node_modules", name)));
    if (installed.length > 0) fail(`devDependencies installed by the production install: ${installed.join(", ")}`);
    for (const tool of ["vite", "esbuild", "tsx", "typescript"])
      if (!(tool in devDependencies)) fail(`${tool} is expected among the devDependencies`);

    const [port, smtpPort] = [await freePort(), await freePort()];
    mail = await startMailCatcher(smtpPort);
    const baseUrl = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? work,
      ...stage.env,
      // This machine's own address and port instead of the container's; everything else as a deployment sets it.
      HOST: "127.0.0.1",
      PORT: String(port),
      BASE_URL: baseUrl,
      DATA_DIR: path.join(work, "data"),
      DATABASE_URL: database.url,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: "Atrium <no-reply@example.test>",
      WEB_CONCURRENCY: "2",
      LOG_LEVEL: "warn",
      ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
    };
    if (env.NODE_ENV !== "production") fail(`the runtime stage sets NODE_ENV=${env.NODE_ENV}, not production`);

    const [migrate = "", ...migrateArgs] = MIGRATE_COMMAND;
    const migration = spawnSync(migrate, migrateArgs, { cwd: app, env, encoding: "utf8" });
    if (migration.status !== 0 || !migration.stdout.includes("Applied: 0001-auth")) {
      fail(`${MIGRATE_COMMAND.join(" ")} exited with ${migration.status}`, `${migration.stdout}${migration.stderr}`);
    }
    step(`${MIGRATE_COMMAND.join(" ")} (${database.dialect})`);

    const [command = "", ...args] = stage.cmd;
    const server = spawn(command, args, { cwd: app, env, stdio: ["ignore", "pipe", "pipe"] });
    const output: string[] = [];
    for (const stream of [server.stdout, server.stderr])
      createInterface({ input: stream }).on("line", (line) => output.push(line));
    const exited = new Promise<number | string | null>((resolve) =>
      server.once("exit", (code, signal) => resolve(signal ?? code)),
    );
    const logs = () => `--- server output ---\n${output.join("\n")}`;
    try {
      await waitFor(async () => (await fetch(`${baseUrl}/readyz`).catch(() => undefined))?.status === 200, {
        timeoutMs: 60_000,
        what: "/readyz to answer 200",
      });
      step("CMD until /readyz answers 200");
      const live = await fetch(`${baseUrl}/livez`);
      if (live.status !== 200) fail(`/livez answered ${live.status}`, await live.text());

      const [check = "", ...checkArgs] = stage.healthcheck;
      const health = spawnSync(check, checkArgs, { env, encoding: "utf8" });
      if (health.status !== 0) fail(`the HEALTHCHECK exited with ${health.status}`, `${health.stdout}${health.stderr}`);

      const index = await fetch(`${baseUrl}/`);
      const html = await index.text();
      if (index.status !== 200 || !html.includes('<div id="root">'))
        fail(`GET / answered ${index.status} without the web app`, html.slice(0, 500));
      const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
      const asset = script ? await fetch(new URL(script, baseUrl)) : undefined;
      if (asset?.status !== 200) fail(`the web app's script ${script} answered ${asset?.status}`);

      const user = buildUser({ label: "Production Check" });
      const signUp = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: baseUrl },
        body: JSON.stringify(user),
      });
      const body = (await signUp.json().catch(() => null)) as { user?: { email?: string } } | null;
      if (signUp.status !== 200 || body?.user?.email !== user.email)
        fail(`sign-up answered ${signUp.status}`, JSON.stringify(body));
      const messages = mail.messages;
      await waitFor(() => messages.some((message) => message.includes(user.email)), {
        timeoutMs: 20_000,
        what: `a mail to ${user.email} over SMTP`,
      });
      step("HEALTHCHECK, web app, sign-up and its mail over SMTP");

      server.kill("SIGTERM");
      const exit = await withTimeout(20_000, "still running 20 s after SIGTERM", () => exited).catch(
        (error: Error) => error.message,
      );
      if (exit !== 0) fail(`the server exited with ${exit} on SIGTERM`);
      step("SIGTERM until exit 0");
    } catch (error) {
      if (error instanceof Error) error.message += `\n${logs()}`;
      throw error;
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
    }
  } finally {
    mail?.server.close();
    await database.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

try {
  await main();
  process.stdout.write(
    `Production path: ok in ${((performance.now() - started) / 1000).toFixed(1)} s\n  ${timings.join("\n  ")}\n`,
  );
} catch (error) {
  process.stderr.write(
    `Production path check failed: ${error instanceof Error ? error.message : String(error)}\n  ${timings.join("\n  ")}\n`,
  );
  process.exitCode = 1;
}

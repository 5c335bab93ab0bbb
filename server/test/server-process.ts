import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port";
import { waitFor } from "./factories";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** What a child process a test starts takes from the test's environment: nothing but PATH, HOME and TMPDIR. */
export function inheritedEnvironment(): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
  };
}

/** A real Atrium server (server/main.ts) in a child process, as the tests that need several processes or kill one start it. */
export type ServerProcess = {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Every line it wrote to stdout and stderr, in order. */
  output: string[];
  /** Its output under a heading, for a failure's message. */
  logs(): string;
  /** Whether it has exited (by itself or killed). */
  hasExited(): boolean;
  /** Resolves with its exit code (or signal) once it has exited. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** Sends `signal` (SIGTERM by default) and waits for the exit; SIGKILL after `graceMs`. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | NodeJS.Signals | null>;
};

export type ServerProcessOptions = {
  /** Names the process in logs and failures ("A", "B", "worker"…). */
  name: string;
  /** Added to (and overriding) the defaults below: at least DATABASE_URL and DATA_DIR. */
  env: Record<string, string>;
  /** A port of its own by default. */
  port?: number;
  /** The file it runs, from the repository's root: server/main.ts unless a test runs another build of it. */
  entry?: string;
  /**
   * How long it may take to answer /healthz with 200: a wait for readiness, not a claim about speed. Loading the
   * server through tsx takes a few seconds of CPU, which took over 50 s on two cores shared by eight busy engineers.
   */
  timeoutMs?: number;
  /** Whether to wait for /healthz; false returns as soon as it is spawned. */
  waitUntilHealthy?: boolean;
};

/**
 * Spawns server/main.ts (through tsx) with a test's environment: no sandbox, no development identity provider,
 * the dev mailbox on, 127.0.0.1 trusted as a proxy (tests send X-Forwarded-For), and waits until it answers
 * /healthz. Nothing of the parent's environment leaks in but PATH, HOME and TMPDIR.
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", options.entry ?? "server/main.ts"], {
    cwd: root,
    env: {
      ...inheritedEnvironment(),
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(port),
      BASE_URL: url,
      DEV_MAILBOX: "true",
      DEV_IDENTITY_PROVIDER: "false",
      BILLING_SANDBOX: "false",
      LOG_LEVEL: "warn",
      TRUSTED_PROXIES: "127.0.0.1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!])
    createInterface({ input: stream }).on("line", (line) => output.push(line));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const server: ServerProcess = {
    name: options.name,
    port,
    url,
    child,
    output,
    exited,
    hasExited,
    logs: () => `--- ${options.name} (${url}) ---\n${output.join("\n") || "(no output)"}`,
    async stop(signal = "SIGTERM", graceMs = 10_000) {
      if (hasExited()) return exited;
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  if (options.waitUntilHealthy === false) return server;
  try {
    await waitFor(
      async () => {
        if (hasExited()) throw new Error(`${options.name} exited (${child.exitCode ?? child.signalCode})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        const health = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
        return health?.status === 200;
      },
      { timeoutMs: options.timeoutMs ?? 90_000, what: `${options.name} to answer /healthz` },
    );
  } catch (error) {
    await server.stop("SIGKILL");
    if (error instanceof Error) error.message = `${error.message}\n\n${server.logs()}`;
    throw error;
  }
  return server;
}

import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./free-port";

const run = promisify(execFile);

/** A PostgreSQL server of a test's own, which it may stop and restart; the shared one must never be. */
export type PrivatePostgres = {
  port: number;
  /** `postgres://postgres@127.0.0.1:PORT/postgres`: trust authentication, a database of the test's own is created on it by the caller. */
  url: string;
  /** `url` with another database name. */
  urlFor(database: string): string;
  start(): Promise<void>;
  /**
   * Stops the server process. `fast` (the default) ends every session, as a restart under load does;
   * `immediate` exits without a checkpoint, as a crash does. Either way clients see their connections dropped.
   */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  restart(mode?: "fast" | "immediate"): Promise<void>;
  /** Stops the server (if running) and removes its data directory. */
  destroy(): Promise<void>;
};

/** Where the PostgreSQL server binaries are, as `pg_config` says; without it, they are looked up on the PATH. */
async function binDir(): Promise<string> {
  try {
    const { stdout } = await run("pg_config", ["--bindir"]);
    const dir = stdout.trim();
    if (existsSync(path.join(dir, "initdb"))) return dir;
  } catch {
    // No pg_config: fall through to the PATH.
  }
  return "";
}

/**
 * Initialises a cluster in a temporary directory and starts it on a free port of 127.0.0.1, its socket in that
 * directory too. The server refuses to run as root, so initdb and pg_ctl run as the `postgres` system user
 * when the tests run as root (a CI container); fsync is off, nothing here needs to survive a power cut.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await binDir();
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "atrium-pg-"));
  const dataDir = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const binary = (command: string) => (bin ? path.join(bin, command) : command);
  const asServerUser = (command: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", binary(command), ...args]) : run(binary(command), args);
  await asServerUser("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  let running = false;

  const handle: PrivatePostgres = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    urlFor: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await asServerUser("pg_ctl", [
        "-D",
        dataDir,
        "-o",
        serverOptions,
        "-l",
        path.join(dir, "server.log"),
        "-w",
        "-t",
        "30",
        "start",
      ]);
      running = true;
    },
    async stop(mode = "fast") {
      await asServerUser("pg_ctl", ["-D", dataDir, "-m", mode, "-w", "-t", "30", "stop"]);
      running = false;
    },
    async restart(mode = "fast") {
      await handle.stop(mode);
      await handle.start();
    },
    async destroy() {
      if (running) await handle.stop("immediate").catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await handle.start();
  return handle;
}

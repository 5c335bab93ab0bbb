// A database of the bench's own, so a bench never measures (or damages) anyone's data: a SQLite file in a fresh temp
// folder, or a fresh database created on the PostgreSQL server DATABASE_URL names and dropped afterwards.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../server/db/database";

export type BenchDatabase = {
  /** The bench's own connection, for seeding. */
  handle: DatabaseHandle;
  /** What a server started on this database gets as DATABASE_URL. */
  url: string;
  /** A fresh folder for the server's DATA_DIR (its secret, the sandbox's state) and, on SQLite, the database file. */
  dataDir: string;
  /** Closes the connection, drops the PostgreSQL database and removes the folder. Safe to call twice. */
  drop(): Promise<void>;
};

export const isPostgresUrl = (url: string | undefined): url is string => /^postgres(ql)?:\/\//.test(url ?? "");

export async function createBenchDatabase(serverUrl = process.env.DATABASE_URL): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-bench-"));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (!isPostgresUrl(serverUrl)) {
    const file = path.join(dataDir, "atrium.sqlite");
    const handle = openDatabase({ dialect: "sqlite", file });
    const drop = async () => {
      await handle.close().catch(() => undefined);
      removeDataDir();
    };
    return { handle, url: file, dataDir, drop: once(drop) };
  }
  const name = `atrium_bench_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ dialect: "postgres", url: url.toString() });
  return {
    handle,
    url: url.toString(),
    dataDir,
    drop: once(async () => {
      await handle.close().catch(() => undefined);
      // FORCE: a server that was killed may still hold connections.
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      removeDataDir();
    }),
  };
}

/**
 * On PostgreSQL, what a server that has held the seeded rows for a while would have done: fresh planner statistics
 * (autovacuum), and the seed's pages written to disk (a checkpoint). Without the checkpoint, the server wrote a
 * million users' pages during the next minutes of measurement, and every path of that size slowed, hello-world's too.
 * SQLite gathers no statistics unless told to, and the server never tells it, so it is left as deployments have it.
 */
export async function settle(handle: DatabaseHandle): Promise<void> {
  if (handle.dialect !== "postgres") return;
  await sql`vacuum analyze`.execute(handle.db);
  await sql`checkpoint`.execute(handle.db);
}

function once(action: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= action());
}

import { existsSync, mkdirSync, openSync, readSync, closeSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { Config } from "../config";
import { BackupError } from "./backup-error";
import { backupPostgres, describePostgres, readPostgresBackup, restorePostgres } from "./backup-postgres";
import { backupSqlite, readSqliteBackup, restoreSqlite } from "./backup-sqlite";
import { migrations } from "./migrate";

/**
 * `npm run db:backup` and `npm run db:restore` (backup-cli.ts, restore-cli.ts): a whole-database copy taken with
 * the database's own tool (SQLite's online backup API, pg_dump's custom format) and put back the same way.
 * Nothing is changed before the backup file has been checked.
 */

type DatabaseConfig = Config["database"];

/** The database as the commands name it to the operator: its file, or its PostgreSQL URL without the password. */
export function describeDatabase(database: DatabaseConfig): string {
  return database.dialect === "sqlite" ? database.file : describePostgres(database.url);
}

/** Where a backup goes unless told: `<DATA_DIR>/backups/atrium-2026-11-27T17-50-00Z.sqlite` (`.dump` on PostgreSQL). */
export function defaultBackupFile(config: Pick<Config, "dataDir" | "database">, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-");
  return path.join(
    config.dataDir,
    "backups",
    `atrium-${stamp}.${config.database.dialect === "sqlite" ? "sqlite" : "dump"}`,
  );
}

/**
 * Writes a consistent snapshot of the database to `file`, which must not exist yet. The copy is written under a
 * `.partial` name beside it and renamed when complete, so a failed or interrupted backup never leaves a file that
 * looks like a backup. Safe while servers run and write.
 */
export async function backupDatabase(database: DatabaseConfig, file: string): Promise<{ file: string; bytes: number }> {
  const destination = path.resolve(file);
  if (existsSync(destination)) throw new BackupError(`${destination} already exists: choose another file name`);
  mkdirSync(path.dirname(destination), { recursive: true });
  const partial = `${destination}.partial`;
  rmSync(partial, { force: true });
  try {
    if (database.dialect === "sqlite") await backupSqlite(database.file, partial);
    else await backupPostgres(database.url, partial);
    renameSync(partial, destination);
  } catch (error) {
    // SQLite's own files beside the copy go with it.
    for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(`${partial}${suffix}`, { force: true });
    throw error;
  }
  return { file: destination, bytes: statSync(destination).size };
}

/** What a restore did, for the operator: the backup, the database, and the migrations this version adds at its next start. */
export type RestoreResult = { file: string; target: string; pending: string[] };

/**
 * Replaces the whole database with the backup in `file`. Refuses, changing nothing, when the file is missing, is not
 * a backup of this kind of database, was made by a newer version of Atrium (migrations this one does not know), or
 * when the database is in use (a server still running on it).
 */
export async function restoreDatabase(database: DatabaseConfig, file: string): Promise<RestoreResult> {
  const source = path.resolve(file);
  if (!existsSync(source) || !statSync(source).isFile()) throw new BackupError(`No backup file at ${source}`);
  if (database.dialect === "sqlite" && source === path.resolve(database.file))
    throw new BackupError(`${source} is the database itself, not a backup of it`);
  const kind = fileKind(source);
  const expected = database.dialect === "sqlite" ? "sqlite" : "postgres";
  if (kind !== expected) {
    const found =
      kind === "sqlite"
        ? "a SQLite database"
        : kind === "postgres"
          ? "a PostgreSQL dump"
          : "neither a SQLite database nor a PostgreSQL dump";
    const wanted =
      expected === "sqlite"
        ? "a SQLite database (DATABASE_URL names a SQLite file)"
        : "a pg_dump custom-format archive (DATABASE_URL is PostgreSQL)";
    throw new BackupError(`${source} is ${found}; restoring needs ${wanted}`);
  }
  const applied = database.dialect === "sqlite" ? readSqliteBackup(source) : await readPostgresBackup(source);
  const known = Object.keys(migrations);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new BackupError(
      `${source} was made by a newer version of Atrium (migrations ${unknown.join(", ")} are unknown here): restore it with that version`,
    );
  }
  if (database.dialect === "sqlite") await restoreSqlite(source, database.file);
  else await restorePostgres(source, database.url);
  return { file: source, target: describeDatabase(database), pending: known.filter((name) => !applied.includes(name)) };
}

const SQLITE_HEADER = "SQLite format 3\0";
const PG_DUMP_HEADER = "PGDMP";

/** What the file's first bytes say it is. */
function fileKind(file: string): "sqlite" | "postgres" | "other" {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const descriptor = openSync(file, "r");
  try {
    readSync(descriptor, header, 0, header.length, 0);
  } finally {
    closeSync(descriptor);
  }
  const text = header.toString("latin1");
  if (text === SQLITE_HEADER) return "sqlite";
  if (text.startsWith(PG_DUMP_HEADER)) return "postgres";
  return "other";
}

/** A size as people read it: 912 bytes, 48.2 kB, 3.1 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

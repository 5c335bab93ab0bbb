import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { BackupError } from "./backup-error";

/** Every remaining page in one step of the backup API: the copy is then one read transaction, a single snapshot. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the database with SQLite's online backup API. The pages are copied in one step, inside one read
 * transaction, so the copy is the database as of one moment even while servers write (WAL lets them go on
 * meanwhile). The copy is switched out of WAL mode, so it is one self-contained file.
 */
export async function backupSqlite(file: string, destination: string): Promise<void> {
  if (!existsSync(file)) throw new BackupError(`No database at ${file}: nothing to back up`);
  const source = new SQLite(file, { fileMustExist: true });
  try {
    await source.backup(destination, { progress: () => ALL_PAGES });
  } catch (error) {
    throw new BackupError(`Backing up ${file} failed: ${messageOf(error)}`);
  } finally {
    source.close();
  }
  const copy = new SQLite(destination, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
}

/**
 * Checks that `file` is an intact Atrium SQLite database and returns the migrations applied to it. Opened
 * read-only: checking changes nothing.
 */
export function readSqliteBackup(file: string): string[] {
  let backup: SQLite.Database | undefined;
  try {
    backup = new SQLite(file, { readonly: true, fileMustExist: true });
    const check = backup.pragma("quick_check", { simple: true });
    if (check !== "ok")
      throw new BackupError(`${file} is a damaged SQLite database (${String(check)}): it cannot be restored`);
    const table = backup
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    if (!table)
      throw new BackupError(`${file} is a SQLite database but not an Atrium backup (it has no kysely_migration table)`);
    return (backup.prepare("select name from kysely_migration order by name").all() as Array<{ name: string }>).map(
      (row) => row.name,
    );
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} cannot be read as a SQLite database: ${messageOf(error)}`);
  } finally {
    backup?.close();
  }
}

/**
 * Replaces the database in `target` with the backup, through the backup API (which takes SQLite's own locks). A
 * server with the database open keeps its own view of it (cached statements, the read cache), so the restore
 * refuses while any other process has it open: switching the journal out of WAL mode needs every other connection
 * gone, and SQLite answers "busy" otherwise. A server started between that check and the copy is not caught.
 */
export async function restoreSqlite(backupFile: string, target: string): Promise<void> {
  if (existsSync(target)) assertNotInUse(target);
  else mkdirSync(path.dirname(target), { recursive: true });
  const source = new SQLite(backupFile, { readonly: true, fileMustExist: true });
  try {
    await source.backup(target, { progress: () => ALL_PAGES });
  } catch (error) {
    throw new BackupError(`Restoring into ${target} failed: ${messageOf(error)}`);
  } finally {
    source.close();
  }
}

function assertNotInUse(target: string): void {
  let database: SQLite.Database | undefined;
  try {
    database = new SQLite(target, { fileMustExist: true, timeout: 1_000 });
    const mode = database.pragma("journal_mode = DELETE", { simple: true });
    if (mode !== "delete")
      throw new BackupError(`${target} could not be switched out of ${String(mode)} mode for the restore`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    if ((error as { code?: string }).code === "SQLITE_BUSY") {
      throw new BackupError(
        `${target} is in use by another process (a running server?): stop every server using it, then restore`,
      );
    }
    throw new BackupError(`${target} cannot be opened for the restore: ${messageOf(error)}`);
  } finally {
    database?.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

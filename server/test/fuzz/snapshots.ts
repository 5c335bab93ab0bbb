import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { SANDBOX_FILE, server, UNCOMPARED_COLUMNS, UNCOMPARED_TABLES } from "./surface";

/**
 * Snapshots of both databases the fuzzed app writes (its own, and the billing sandbox's SQLite file), and a
 * readable diff between two of them.
 */

// ---------------------------------------------------------------------------------------------------------
// Snapshots of both databases (the app's, and the billing sandbox's own SQLite file)

export async function listAppTables(): Promise<string[]> {
  const query =
    server.dialect === "sqlite"
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`;
  return (await query.execute(server.db)).rows.map((row) => row.name).sort();
}

export const appTables = await listAppTables();
export const sandboxStore: SQLite.Database = new SQLite(SANDBOX_FILE, { readonly: true, fileMustExist: true });
// sqlite_* tables are SQLite's bookkeeping of the tables listed here.
export const sandboxTables = sandboxStore
  .prepare<[], { name: string }>("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
  .all()
  .map((row) => row.name);

export type Snapshot = Map<string, string[]>;

export function canonicalRow(row: unknown): string {
  return JSON.stringify(row, (_key, value: unknown) => {
    if (typeof value === "bigint") return `${value}n`;
    if (value instanceof Uint8Array) return Buffer.from(value).toString("hex");
    return value;
  });
}

/**
 * How many writes the compared tables have had: a trigger on each bumps a counter (a sequence on PostgreSQL, so
 * writers never wait on it), and the sandbox's file has SQLite's `data_version`, which moves when another
 * connection commits. Installed after `appTables` is read, so the counter is not one of them.
 */
async function installWriteCounter(): Promise<() => Promise<string>> {
  const compared = appTables.filter((table) => !(table in UNCOMPARED_TABLES));
  if (server.dialect === "sqlite") {
    // A full-text index (a virtual table and its shadow tables) takes no trigger; it follows its base table's writes.
    const virtual = (
      await sql<{ name: string }>`select name from sqlite_master where sql like 'CREATE VIRTUAL TABLE%'`.execute(
        server.db,
      )
    ).rows.map((row) => row.name);
    const isIndex = (table: string) => virtual.some((name) => table === name || table.startsWith(`${name}_`));
    await sql`create table fuzz_write_count (n integer not null)`.execute(server.db);
    await sql`insert into fuzz_write_count values (0)`.execute(server.db);
    for (const table of compared.filter((name) => !isIndex(name))) {
      for (const event of ["insert", "update", "delete"]) {
        await sql
          .raw(
            `create trigger "fuzz_${table}_${event}" after ${event} on "${table}" ` +
              "begin update fuzz_write_count set n = n + 1; end",
          )
          .execute(server.db);
      }
    }
  } else {
    await sql`create sequence fuzz_writes`.execute(server.db);
    await sql`create function fuzz_count_write() returns trigger language plpgsql as $$
      begin perform nextval('fuzz_writes'); return null; end $$`.execute(server.db);
    for (const table of compared) {
      await sql
        .raw(
          `create trigger "fuzz_${table}" after insert or update or delete or truncate on "${table}" ` +
            "for each statement execute function fuzz_count_write()",
        )
        .execute(server.db);
    }
  }
  const appWrites =
    server.dialect === "sqlite"
      ? sql<{ n: number }>`select n from fuzz_write_count`
      : sql<{ n: number }>`select last_value as n from fuzz_writes`;
  return async () => {
    const { rows } = await appWrites.execute(server.db);
    return `${rows[0]?.n}:${sandboxStore.pragma("data_version", { simple: true })}`;
  };
}

const writeCount = await installWriteCounter();
let lastSnapshot: { writes: string; tables: Snapshot } | undefined;

/**
 * Every compared row of both databases. Read again only after a write: most fuzzed requests are refusals that
 * change nothing, and reading every table twice per request made the run grow with the tables. The count is read
 * before the rows, so a write between the two makes the next snapshot read again.
 */
export async function snapshot(): Promise<Snapshot> {
  const writes = await writeCount();
  if (lastSnapshot?.writes === writes) return lastSnapshot.tables;
  const tables = await readTables();
  lastSnapshot = { writes, tables };
  return tables;
}

async function readTables(): Promise<Snapshot> {
  const tables = new Map<string, string[]>();
  for (const table of appTables) {
    if (table in UNCOMPARED_TABLES) continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(server.db);
    const skipped = UNCOMPARED_COLUMNS[table] ?? [];
    tables.set(
      table,
      rows
        .map((row) =>
          canonicalRow(Object.fromEntries(Object.entries(row).filter(([column]) => !skipped.includes(column)))),
        )
        .sort(),
    );
  }
  for (const table of sandboxTables) {
    tables.set(`sandbox:${table}`, sandboxStore.prepare(`select * from "${table}"`).all().map(canonicalRow).sort());
  }
  return tables;
}

/** A row's fields, with JSON documents (the sandbox stores its objects as JSON text) opened one level, for a readable diff. */
export function fieldsOf(row: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(JSON.parse(row) as Record<string, unknown>)) {
    if (typeof value === "string" && value.startsWith("{")) {
      try {
        for (const [inner, innerValue] of Object.entries(JSON.parse(value) as Record<string, unknown>))
          fields[`${key}.${inner}`] = innerValue;
        continue;
      } catch {
        // Not a JSON document: compared as the text it is.
      }
    }
    fields[key] = value;
  }
  return fields;
}

export const identityOf = (fields: Record<string, unknown>) =>
  String(fields.id ?? fields.key ?? Object.values(fields)[0]);

/** What changed between two snapshots: rows added and removed, and for a row that was rewritten, the fields that differ. */
export function describeChanges(
  before: Snapshot,
  after: Snapshot,
  isExempt: (table: string) => boolean = () => false,
): string[] {
  const changes: string[] = [];
  for (const [table, rows] of after) {
    if (isExempt(table)) continue;
    const previous = before.get(table) ?? [];
    if (previous.join("\n") === rows.join("\n")) continue;
    const was = new Set(previous);
    const now = new Set(rows);
    const removed = new Map(
      previous.filter((row) => !now.has(row)).map((row) => [identityOf(fieldsOf(row)), fieldsOf(row)]),
    );
    const lines: string[] = [];
    for (const row of rows.filter((candidate) => !was.has(candidate))) {
      const fields = fieldsOf(row);
      const old = removed.get(identityOf(fields));
      if (!old) {
        lines.push(`  + ${cut(row, 400)}`);
        continue;
      }
      removed.delete(identityOf(fields));
      const keys = [...new Set([...Object.keys(old), ...Object.keys(fields)])].filter(
        (key) => JSON.stringify(old[key]) !== JSON.stringify(fields[key]),
      );
      lines.push(
        `  ~ ${identityOf(fields)}: ${keys.map((key) => `${key} ${cut(JSON.stringify(old[key]), 120)} → ${cut(JSON.stringify(fields[key]), 120)}`).join(", ")}`,
      );
    }
    for (const old of removed.values()) lines.push(`  - ${cut(JSON.stringify(old), 400)}`);
    changes.push(`${table}:`, ...lines.slice(0, 6));
  }
  return changes;
}

export function cut(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} chars)`;
}

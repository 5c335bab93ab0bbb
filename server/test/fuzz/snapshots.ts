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

export async function snapshot(): Promise<Snapshot> {
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

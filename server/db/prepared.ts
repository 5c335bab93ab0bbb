import { createHash } from "node:crypto";
import type { Compilable, Kysely } from "kysely";
import type { Database } from "./schema";

/**
 * Statements PostgreSQL keeps per connection (named prepared statements), by their SQL: parsed once, and from the
 * sixth run on planned once (a generic plan, made without the values) when that plan costs no more than the plans
 * made for each run's values. Only a statement whose plan is right whatever its values may be marked, and this is
 * measured, not assumed (ADR 0033). The members list's page without a search is: its generic plan reads the page's
 * ids first, at any offset. So is the page of a search found in memory (ADR 0037): its ids come as one array, joined
 * by primary key. A search in the database is not: its generic plan scanned the organization for every term. Nor is the
 * membership check: its generic plan, made for an organization of average size, scanned the 10,000 members of a
 * large one. SQLite compiles each statement once anyway (`openDatabase`).
 */
const names = new Map<string, string>();

/** Past this many marked texts none is added: marks come from a few call sites, so more means a text that varies. */
const MARKED_MAX = 64;

/** Runs `query` as a statement PostgreSQL keeps per connection; its rows, as `execute()` returns them. */
export async function executePrepared<Row>(db: Kysely<Database>, query: Compilable<Row>): Promise<Row[]> {
  const compiled = query.compile();
  if (!names.has(compiled.sql) && names.size < MARKED_MAX)
    names.set(compiled.sql, `atrium_${createHash("sha256").update(compiled.sql).digest("hex").slice(0, 24)}`);
  return (await db.executeQuery(compiled)).rows;
}

/** What the PostgreSQL driver runs for Kysely's (text, values): the named statement when the text is marked. */
export function preparedQuery(
  text: string,
  values: unknown[] | undefined,
): { name?: string; text: string; values?: unknown[] } {
  return { name: names.get(text), text, values };
}

import { PostgresAdapter, sql, type Kysely } from "kysely";
import { organizationTag, type ReadCache } from "../../db/read-cache";
import type { Database } from "../../db/schema";

/**
 * An organization's memberships in the members list's order, with the text a search of the list matches, kept in the
 * read cache for reads (ADR 0037): a search by name or e-mail then scans memory instead of planning and running a
 * trigram search in the database. The text is what the database's own search reads (PostgreSQL's `member_search`,
 * migration 0029; on SQLite the same columns lowercased by SQLite), so both find the same members. It is tagged with
 * the organization, whose rows in the change feed come with every change of a membership, a member's user (fanned out
 * to their organizations, migration 0009) or a team.
 */
type MemberDirectory = {
  /** The memberships' ids, in the list's order. */
  ids: readonly string[];
  /** Where each membership's text starts in `text`. */
  starts: readonly number[];
  /** The texts, one after the other, each followed by `END`: one string, searched with one `indexOf` per match. */
  text: string;
};

/** Ends each membership's text: PostgreSQL's text cannot hold it, and a term that does is searched in the database. */
const END = "\u0000";
/** Separates a membership's columns in its text (migration 0029): a term that holds it is searched in the database. */
const COLUMN_SEPARATOR = "\u0001";

/**
 * An organization with more members than this is searched in the database: its directory would take more than a
 * few megabytes of the read cache's 32, and as long to read as many searches.
 */
const DIRECTORY_MAX_MEMBERS = 50_000;

/**
 * The ids of the organization's memberships whose name, e-mail or username holds `term` (lowercased, as the database
 * search lowercases it), in the list's order; undefined when the directory cannot answer and the database must: the
 * read cache is not current, the term holds a separator, or the organization has more than `largest` members.
 */
export async function searchMemberDirectory(
  db: Kysely<Database>,
  organizationId: string,
  term: string,
  cache: ReadCache,
  largest = DIRECTORY_MAX_MEMBERS,
): Promise<string[] | undefined> {
  const needle = term.toLowerCase();
  if (!needle || needle.includes(END) || needle.includes(COLUMN_SEPARATOR)) return undefined;
  const directory = await memberDirectory(db, organizationId, cache, largest);
  if (!directory) return undefined;
  const { ids, starts, text } = directory;
  const found: string[] = [];
  let entry = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, starts[entry] ?? text.length)) {
    while (entry + 1 < starts.length && (starts[entry + 1] ?? 0) <= at) entry += 1;
    found.push(ids[entry] ?? "");
    entry += 1;
  }
  return found;
}

/** Kept in place of the directory of an organization larger than that. */
const TOO_LARGE = Object.freeze({ tooLarge: true });

/**
 * The directories being read, by read cache, key and change-feed position: a search that arrives meanwhile waits for
 * the same read, unless a change was applied since it began (then the read may not show a write its client made).
 */
const reading = new WeakMap<ReadCache, Map<string, Promise<MemberDirectory | undefined>>>();

/** The kept directory, or one read now and kept; undefined while the read cache is not current or it is too large. */
async function memberDirectory(
  db: Kysely<Database>,
  organizationId: string,
  cache: ReadCache,
  largest: number,
): Promise<MemberDirectory | undefined> {
  const key = `member-directory#${organizationId}`;
  const kept = cache.get<MemberDirectory | typeof TOO_LARGE>(key);
  if (kept) return "tooLarge" in kept ? undefined : kept;
  const ticket = cache.ticket();
  if (ticket === undefined) return undefined;
  let inFlight = reading.get(cache);
  if (!inFlight) reading.set(cache, (inFlight = new Map()));
  const readKey = `${key}@${ticket}`;
  const pending = inFlight.get(readKey);
  if (pending) return pending;
  const read = readAndKeep(db, organizationId, { cache, key, ticket }, largest).finally(() => inFlight.delete(readKey));
  inFlight.set(readKey, read);
  return read;
}

async function readAndKeep(
  db: Kysely<Database>,
  organizationId: string,
  { cache, key, ticket }: { cache: ReadCache; key: string; ticket: number },
  largest: number,
): Promise<MemberDirectory | undefined> {
  const tags = [organizationTag(organizationId)];
  const rows = await readDirectory(db, organizationId, largest + 1);
  if (rows.length > largest) {
    cache.set(key, TOO_LARGE, { tags }, ticket);
    return undefined;
  }
  const starts: number[] = [];
  let length = 0;
  for (const row of rows) {
    starts.push(length);
    length += row.search.length + END.length;
  }
  const directory: MemberDirectory = Object.freeze({
    ids: Object.freeze(rows.map((row) => row.id)),
    starts: Object.freeze(starts),
    text: rows.map((row) => row.search + END).join(""),
  });
  // About 2 bytes a character of text, and an id (36 characters) with its start for each membership.
  const bytes = directory.text.length * 2 + rows.length * 96;
  cache.set(key, directory, { tags, bytes }, ticket);
  return directory;
}

/** The first `limit` memberships with their searched text, in the members list's order (migrations 0027, 0029). */
async function readDirectory(
  db: Kysely<Database>,
  organizationId: string,
  limit: number,
): Promise<{ id: string; search: string }[]> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ id: string; search: string }>`select member_id as id, search from member_search
      where organization_id = ${organizationId} order by "createdAt", member_id limit ${limit}`.execute(db);
    return rows;
  }
  const { rows } = await sql<{ id: string; search: string }>`select member.id,
      lower("user".name) || char(1) || lower("user".email) || char(1) || lower(coalesce("user".username, '')) as search
    from member inner join "user" on "user".id = member."userId"
    where member."organizationId" = ${organizationId} order by member."createdAt", member.id limit ${limit}`.execute(
    db,
  );
  return rows;
}

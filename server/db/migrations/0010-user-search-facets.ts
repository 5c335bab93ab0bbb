import type { Kysely, RawBuilder } from "kysely";
import { sql } from "kysely";
import { columnTypes } from "./column-types";
import * as userSearch from "./0008-user-search";

/**
 * The users list's search answers from its indexes alone, filters included, for terms of two characters too
 * (docs/ARCHITECTURE.md, the admin console). 0008's structures are replaced; the sort indexes stay.
 *
 * SQLite: every user's row in the FTS tables sits in one of eight column groups, its facet: platform admin (4),
 * verified e-mail (2), the banned flag set (1). A filter on role or verification is then a column filter of the
 * MATCH, so a count of a search with filters is a count over the index, never a lookup per match. The rowid is
 * `user_search_key.search_id`, the user's creation time in milliseconds × 2^20 plus a sequence within that
 * millisecond: the index's own order is the creation order (the list's default sort), so the newest matches are read
 * first and a page stops after its rows, and a creation-day filter is a rowid range. Besides the trigram table
 * (`user_search`, terms of three characters or more), `user_search_pair` indexes every two characters of the
 * lowercased name, e-mail and username, as `p` and their UTF-8 in hex, for terms of two characters.
 *
 * PostgreSQL: `user_search` holds, per user, the three searched columns lowercased into one (separated by U+0001,
 * so a term without that character matches within one column), whether the user is a platform admin, and copies of
 * the other columns the filters read, so a count reads that narrow table alone, and a page in creation order walks its
 * own index. A trigram index (pg_trgm, when it can be installed) serves terms of three characters or more, an index
 * over the two-character substrings (`user_search_pairs`) those of two.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect === "sqlite") await createSqliteSearch(db);
  else await createPostgresSearch(db);
}

/** Back to 0008's structures: they are dropped with what replaced them (same names), then built again. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect === "sqlite") {
    await sql`drop trigger if exists user_search_rekey`.execute(db);
    await sql`drop table user_search_pair`.execute(db);
  }
  await userSearch.down(db);
  if (dialect === "postgres") await sql`drop function user_search_pairs(text)`.execute(db);
  await userSearch.up(db);
}

/** Search ids per millisecond of creation time. */
const IDS_PER_MILLISECOND = 1_048_576;
/** Creation times whose search ids fit in 64 bits: about the years 1691 to 2248. */
const MAX_MILLISECONDS = 2 ** 43 - 1;
const FACETS = [0, 1, 2, 3, 4, 5, 6, 7] as const;

/** The facet, as the list's filters read the same columns: role holds `admin` among its comma-separated roles, the e-mail is verified, banned is set. */
const facetOf = (row: string) =>
  sql.raw(
    `(coalesce((',' || ${row}.role || ',') like '%,admin,%', 0) * 4 + coalesce(${row}."emailVerified" = 1, 0) * 2 + (${row}.banned is true))`,
  );
const millisecondOf = (row: string) =>
  sql.raw(`cast(round((julianday(${row}."createdAt") - 2440587.5) * 86400000) as integer)`);
const firstSearchIdOf = (row: string) => sql`(${millisecondOf(row)} * ${sql.lit(IDS_PER_MILLISECOND)})`;

/** The distinct two-character substrings of the lowercased name, e-mail and username, as tokens: json_each numbers the characters. */
const pairsOf = (row: string) => sql`(
  select group_concat(pair, ' ') from (
    select distinct 'p' || hex(substr(searched.value, position.key + 1, 2)) as pair
    from (select lower(${sql.raw(row)}.name) as value union all select lower(${sql.raw(row)}.email) union all select lower(${sql.raw(row)}.username)) as searched,
      json_each('[' || replace(hex(zeroblob(length(searched.value))), '00', '0,') || '0]') as position
    where position.key + 2 <= length(searched.value)))`;

const trigramColumns = FACETS.flatMap((facet) => [`name_${facet}`, `email_${facet}`, `username_${facet}`]);
const pairColumns = FACETS.map((facet) => `pairs_${facet}`);
/** Each facet's columns get the values when the key's facet is theirs, null otherwise. */
const inFacetColumns = (values: RawBuilder<unknown>[]) =>
  sql.join(
    FACETS.flatMap((facet) => values.map((value) => sql`iif(search_key.facet = ${sql.lit(facet)}, ${value}, null)`)),
  );

/** Inserts the FTS rows of the user `row` names (`new` in a trigger), whose key row `search_key` exists. */
function insertSearchRows(row: string, keys: RawBuilder<unknown>) {
  const column = (name: string) => sql.raw(`${row}.${name}`);
  return [
    sql`insert into user_search (rowid, ${sql.raw(trigramColumns.join(", "))})
      select search_key.search_id, ${inFacetColumns([column("name"), column("email"), column("username")])} from ${keys}`,
    // iif evaluates only the branch it picks: the pairs once per user.
    sql`insert into user_search_pair (rowid, ${sql.raw(pairColumns.join(", "))})
      select search_key.search_id, ${inFacetColumns([pairsOf(row)])} from ${keys}`,
  ];
}

/** In a trigger: the key row of `new`, its search id the next free one in its creation millisecond. */
const insertKey = [
  sql`select raise(abort, 'user.createdAt must be a time between the years 1691 and 2248')
    where julianday(new."createdAt") is null or abs(${millisecondOf("new")}) > ${sql.lit(MAX_MILLISECONDS)}`,
  sql`select raise(abort, 'too many users created in the same millisecond')
    from user_search_key where search_id = ${firstSearchIdOf("new")} + ${sql.lit(IDS_PER_MILLISECOND - 1)}`,
  sql`insert into user_search_key (search_id, user_id, facet) values (
    coalesce((select max(search_id) + 1 from user_search_key
      where search_id between ${firstSearchIdOf("new")} and ${firstSearchIdOf("new")} + ${sql.lit(IDS_PER_MILLISECOND - 1)}), ${firstSearchIdOf("new")}),
    new.id, ${facetOf("new")})`,
];

const deleteSearchRows = (userId: string) => [
  sql`delete from user_search where rowid = (select search_id from user_search_key where user_id = ${sql.raw(userId)})`,
  sql`delete from user_search_pair where rowid = (select search_id from user_search_key where user_id = ${sql.raw(userId)})`,
];

const trigger = (head: RawBuilder<unknown>, statements: RawBuilder<unknown>[]) =>
  sql`${head} begin ${sql.join(
    statements.map((statement) => sql`${statement};`),
    sql` `,
  )} end`;

async function createSqliteSearch(db: Kysely<unknown>): Promise<void> {
  const outOfRange = await sql<{ id: string }>`
    select id from "user" where julianday("createdAt") is null or abs(${millisecondOf('"user"')}) > ${sql.lit(MAX_MILLISECONDS)} limit 1`.execute(
    db,
  );
  if (outOfRange.rows.length)
    throw new Error(`user ${outOfRange.rows[0]?.id}: createdAt is not a time between the years 1691 and 2248`);

  for (const name of ["user_search_insert", "user_search_update", "user_search_delete"])
    await sql`drop trigger ${sql.id(name)}`.execute(db);
  await sql`drop table user_search`.execute(db);
  await sql`drop table user_search_key`.execute(db);

  await sql`create table user_search_key (search_id integer primary key, user_id text not null unique, facet integer not null)`.execute(
    db,
  );
  // contentless_delete: the index keeps no copy of the columns, yet rows can still be deleted and replaced.
  await sql`create virtual table user_search using fts5(${sql.raw(trigramColumns.join(", "))}, content = '', contentless_delete = 1, tokenize = 'trigram')`.execute(
    db,
  );
  // The pair tokens are ASCII words; detail = 'column' keeps which column (facet) holds them, without positions.
  await sql`create virtual table user_search_pair using fts5(${sql.raw(pairColumns.join(", "))}, content = '', contentless_delete = 1, tokenize = 'ascii', detail = 'column')`.execute(
    db,
  );

  const crowded = await sql`
    select 1 from "user" as u group by ${millisecondOf("u")} having count(*) > ${sql.lit(IDS_PER_MILLISECOND)} limit 1`.execute(
    db,
  );
  if (crowded.rows.length)
    throw new Error(`more than ${IDS_PER_MILLISECOND} users were created in the same millisecond`);
  // Users of the same millisecond are numbered in id order.
  await sql`
    insert into user_search_key (search_id, user_id, facet)
    select millisecond * ${sql.lit(IDS_PER_MILLISECOND)} + row_number() over (partition by millisecond order by id) - 1, id, facet
    from (select id, ${millisecondOf("u")} as millisecond, ${facetOf("u")} as facet from "user" as u)`.execute(db);
  for (const statement of insertSearchRows(
    "u",
    sql`user_search_key as search_key join "user" as u on u.id = search_key.user_id`,
  ))
    await statement.execute(db);

  const keyOfNew = sql`user_search_key as search_key where search_key.user_id = new.id`;
  const searched = ["name", "email", "username"].map((column) => `old.${column} is not new.${column}`).join(" or ");
  await trigger(sql`create trigger user_search_insert after insert on "user"`, [
    ...insertKey,
    ...insertSearchRows("new", keyOfNew),
  ]).execute(db);
  await trigger(sql`create trigger user_search_delete after delete on "user"`, [
    ...deleteSearchRows("old.id"),
    sql`delete from user_search_key where user_id = old.id`,
  ]).execute(db);
  await trigger(
    sql`create trigger user_search_update after update of name, email, username, role, "emailVerified", banned on "user"
      when ${sql.raw(searched)} or ${facetOf("old")} is not ${facetOf("new")}`,
    [
      ...deleteSearchRows("new.id"),
      sql`update user_search_key set facet = ${facetOf("new")} where user_id = new.id`,
      ...insertSearchRows("new", keyOfNew),
    ],
  ).execute(db);
  // A new creation time (or id) is a new place in the index's order.
  await trigger(
    sql`create trigger user_search_rekey after update of id, "createdAt" on "user" when old.id is not new.id or old."createdAt" is not new."createdAt"`,
    [
      ...deleteSearchRows("old.id"),
      sql`delete from user_search_key where user_id = old.id`,
      ...insertKey,
      ...insertSearchRows("new", keyOfNew),
    ],
  ).execute(db);
}

/**
 * What PostgreSQL's user_search holds of a user `row`: the searched columns, whether role holds `admin` among its
 * comma-separated roles (as the list's filter reads it), and the other filters' columns under their own names.
 */
export const postgresSearchRow = (row: string) => {
  const column = (name: string) => sql.raw(`${row}.${name}`);
  return sql`${column("id")}, lower(${column("name")}) || chr(1) || lower(${column("email")}) || chr(1) || coalesce(lower(${column("username")}), ''),
    ${column('"createdAt"')}, ${column('"emailVerified"')}, coalesce((',' || ${column("role")} || ',') like '%,admin,%', false), ${column("banned")},
    ${column('"banExpires"')}`;
};
export const POSTGRES_COLUMNS = sql.raw(`user_id, search, "createdAt", "emailVerified", admin, banned, "banExpires"`);

async function createPostgresSearch(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger user_search_insert on "user"`.execute(db);
  await sql`drop trigger user_search_update on "user"`.execute(db);
  await sql`drop table user_search`.execute(db);
  await sql`
    create table user_search (
      user_id text primary key references "user" (id) on delete cascade,
      search text not null,
      "createdAt" timestamptz not null,
      "emailVerified" boolean not null,
      admin boolean not null,
      banned boolean,
      "banExpires" timestamptz
    )`.execute(db);
  await sql`insert into user_search (${POSTGRES_COLUMNS}) select ${postgresSearchRow('"user"')} from "user"`.execute(
    db,
  );
  await sql`
    create or replace function user_search_sync() returns trigger language plpgsql as $$
    begin
      insert into user_search (${POSTGRES_COLUMNS}) values (${postgresSearchRow("new")})
      on conflict (user_id) do update set search = excluded.search, "createdAt" = excluded."createdAt", "emailVerified" = excluded."emailVerified",
        admin = excluded.admin, banned = excluded.banned, "banExpires" = excluded."banExpires";
      return null;
    end $$`.execute(db);
  const copied = ["name", "email", "username", '"createdAt"', '"emailVerified"', "role", "banned", '"banExpires"'];
  await sql`create trigger user_search_insert after insert on "user" for each row execute function user_search_sync()`.execute(
    db,
  );
  await sql`
    create trigger user_search_update after update of ${sql.raw(copied.join(", "))} on "user" for each row
    when (${sql.raw(copied.map((column) => `old.${column} is distinct from new.${column}`).join(" or "))})
    execute function user_search_sync()`.execute(db);

  // Terms of two characters: every pair of characters, in a GIN index over the function's result (not stored; the
  // index keeps each key once per row).
  await sql`
    create function user_search_pairs(text) returns text[] language sql immutable strict parallel safe
    as $$ select array(select substr($1, position, 2) from generate_series(1, char_length($1) - 1) as position) $$`.execute(
    db,
  );
  await sql`create index user_search_pairs_idx on user_search using gin (user_search_pairs(search))`.execute(db);
  await sql`create index "user_search_createdAt_idx" on user_search ("createdAt", user_id)`.execute(db);
  // pg_trgm as 0008 left it: installed when the database allowed it.
  const extension = await sql<{
    schema: string;
  }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
  const schema = extension.rows[0]?.schema;
  if (schema)
    await sql`create index user_search_trgm_idx on user_search using gin (search ${sql.id(schema)}.gin_trgm_ops)`.execute(
      db,
    );
  await sql`analyze user_search`.execute(db);
}

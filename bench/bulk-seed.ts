// The scale bench's data, written by PostgreSQL itself (INSERT … SELECT over generate_series): a million users take
// minutes this way, where building the rows in node and sending them would take far longer. Every value is drawn from
// the MD5 of the row's number, so every run seeds the same people, with users.ts's names, domains and habits.
import { sql, type Kysely, type RawBuilder } from "kysely";
import { POSTGRES_COLUMNS, postgresSearchRow } from "../server/db/migrations/0010-user-search-facets";
import type { Database } from "../server/db/schema";
import { DOMAINS, FIRST_NAMES, INITIALS, LAST_NAMES, RARE_LAST_NAMES } from "./users";

/** The id of seeded user `n` (from 1): 32 hexadecimal digits, as long as better-auth's ids. */
export const seededUserId = (n: number | RawBuilder<unknown>) => sql<string>`md5('bench-user-' || ${n})`;
/** The id of seeded organization `n` (from 1). */
const organizationId = (n: RawBuilder<unknown>) => sql<string>`md5('bench-organization-' || ${n})`;

const list = (items: readonly string[]) => sql`${sql.val(items)}::text[]`;
/** An element of `items` chosen by a number drawn for the row. */
const pick = (items: readonly string[], drawn: RawBuilder<unknown>) =>
  sql`(${list(items)})[1 + (${drawn}) % ${sql.lit(items.length)}]`;
/** Byte `index` (0–15) of the row's 16 drawn bytes, 0–255. */
const byte = (index: number) => sql`get_byte(d, ${sql.lit(index)})`;
/** A name as people type it into an address: lowercase ASCII letters. */
const slug = (column: string) => sql`lower(translate(${sql.ref(column)}, 'éöëü''-', 'eoeu'))`;

/**
 * Runs `load` with the secondary indexes of `tables` dropped, then builds them again from their own definitions
 * (pg_indexes), as a restore does: one sort per index instead of a million random inserts into each, and no GIN
 * index updated row by row. The indexes that back a constraint (keys, unique columns) stay and keep checking it.
 */
async function withIndexesRebuilt(
  db: Kysely<Database>,
  tables: readonly string[],
  load: () => Promise<void>,
): Promise<void> {
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select indexname as name, indexdef as definition from pg_indexes
    where schemaname = current_schema() and tablename in (${sql.join(tables)})
      and indexname not in (select conname from pg_constraint)`.execute(db);
  for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(db);
  await load();
  await db.connection().execute(async (connection) => {
    await sql`set maintenance_work_mem = '256MB'`.execute(connection);
    for (const index of indexes) await sql.raw(index.definition).execute(connection);
    await sql`reset maintenance_work_mem`.execute(connection);
  });
}

/**
 * Users `from` to `to` (numbers from 1), signed up over the two years before now: one in ten with a middle initial,
 * one in a thousand with a rare surname, four e-mail habits (the number keeps addresses unique), a username for two in
 * three, 80 % verified, about 1 % admins and 1 % banned (half of them until a date).
 */
export async function insertSeededUsers(db: Kysely<Database>, from: number, to: number): Promise<void> {
  await withIndexesRebuilt(db, ["user", "user_search"], () =>
    db.transaction().execute(async (trx) => {
      // The admin search's copies (migration 0010) in one statement after the users, not one trigger call per user;
      // the trigger is off only inside this transaction.
      await sql`alter table "user" disable trigger user_search_insert`.execute(trx);
      await insertUserRows(trx, from, to);
      await sql`
        insert into user_search (${POSTGRES_COLUMNS}) select ${postgresSearchRow('"user"')} from "user"
        where not exists (select from user_search where user_search.user_id = "user".id)`.execute(trx);
      await sql`alter table "user" enable trigger user_search_insert`.execute(trx);
    }),
  );
}

async function insertUserRows(db: Kysely<Database>, from: number, to: number): Promise<void> {
  const isRare = sql`(${byte(2)} * 256 + ${byte(3)}) % 1000 = 0`;
  await sql`
    insert into "user" (id, name, email, "emailVerified", image, "createdAt", "updatedAt", username,
      "displayUsername", role, banned, "banReason", "banExpires")
    select id, name, email, verified, null, created, created, username, username, role, banned,
      case when banned then 'Spam' end,
      case when banned and ${byte(1)} % 2 = 0 then now() + (${byte(3)} % 30) * interval '1 day' end
    from (
      select d, encode(d, 'hex') as id,
        case when ${byte(5)} < 26 then first || ' ' || ${pick(INITIALS, byte(6))} || '. ' || last
          else first || ' ' || last end as name,
        case ${byte(7)} % 4 when 0 then ${slug("first")} || '.' || ${slug("last")}
          when 1 then left(${slug("first")}, 1) || ${slug("last")}
          when 2 then ${slug("first")} || '_' || ${slug("last")}
          else ${slug("first")} || ${slug("last")} end || n || '@' || ${pick(DOMAINS, byte(8))} as email,
        ${byte(15)} >= 51 as verified,
        now() - ((${byte(12)} * 65536 + ${byte(13)} * 256 + ${byte(14)}) / 16777216.0) * interval '730 days'
          as created,
        case when ${byte(11)} % 3 <> 0 then ${slug("first")} || ${slug("last")} || n end as username,
        case when ${byte(9)} < 3 then 'admin' else 'user' end as role,
        case when ${byte(10)} < 3 then true end as banned
      from (
        select n, d, ${pick(FIRST_NAMES, sql`${byte(0)} * 256 + ${byte(1)}`)} as first,
          case when ${isRare} then ${pick(RARE_LAST_NAMES, byte(4))} else ${pick(LAST_NAMES, byte(4))} end as last
        from (select n, decode(${seededUserId(sql.ref("n"))}, 'hex') as d
          from generate_series(${from}::int, ${to}::int) as n) as drawn
      ) as named
    ) as users`.execute(db);
}

const KINDS = ["Labs", "Group", "Studio", "Partners", "Works"];

/** `count` organizations, each owned by one of the first `owners` seeded users in turn. */
export async function insertSeededOrganizations(db: Kysely<Database>, count: number, owners: number): Promise<void> {
  const n = sql.ref("n");
  await sql`
    insert into organization (id, name, slug, logo, "createdAt", metadata)
    select ${organizationId(n)}, ${pick(LAST_NAMES, n)} || ' ' || ${pick(KINDS, sql`n / 7`)} || ' ' || n,
      'bench-organization-' || n, null, now() - (n % 730) * interval '1 day', null
    from generate_series(1, ${count}::int) as n`.execute(db);
  await sql`
    insert into member (id, "organizationId", "userId", role, "createdAt")
    select md5('bench-owner-' || n), ${organizationId(n)}, ${seededUserId(sql`1 + (n - 1) % ${owners}::int`)}, 'owner',
      now() - (n % 730) * interval '1 day'
    from generate_series(1, ${count}::int) as n`.execute(db);
}

/** The user joins seeded organizations 1 to `count` as a plain member. */
export async function joinSeededOrganizations(db: Kysely<Database>, userId: string, count: number): Promise<void> {
  const n = sql.ref("n");
  await sql`
    insert into member (id, "organizationId", "userId", role, "createdAt")
    select md5('bench-joined-' || n), ${organizationId(n)}, ${userId}, 'member', now()
    from generate_series(1, ${count}::int) as n`.execute(db);
}

/** Seeded users 1 to `count` join the organization as plain members, a millisecond apart in that order. */
export async function addSeededMembers(db: Kysely<Database>, organizationId: string, count: number): Promise<void> {
  const n = sql.ref("n");
  await sql`
    insert into member (id, "organizationId", "userId", role, "createdAt")
    select md5('bench-member-' || n), ${organizationId}, ${seededUserId(n)}, 'member', now() + n * interval '1 ms'
    from generate_series(1, ${count}::int) as n`.execute(db);
}

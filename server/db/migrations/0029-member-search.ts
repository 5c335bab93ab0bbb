import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * PostgreSQL: the members list's search reads one table of its own, `member_search`, a row per membership with its
 * user's searched text (user_search's `search`, migration 0010) and the list's order. Joining the memberships to
 * their users made PostgreSQL scan every user (1 s at 1,000,000 users for an organization of 10,000); here the
 * organization's index and the trigram index meet in one bitmap, 2 to 4 ms (docs/performance.md). Triggers keep it
 * in step: a new membership copies its user's text, a renamed user's memberships follow, a removed one cascades.
 *
 * SQLite reads an organization's memberships and looks each user up (no hash join, no scan of every user): nothing
 * to add there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect !== "postgres") return;
  await sql`
    create table member_search (
      member_id text primary key references member (id) on delete cascade,
      organization_id text not null,
      user_id text not null,
      search text not null,
      "createdAt" timestamptz not null
    )`.execute(db);
  await sql`
    insert into member_search (member_id, organization_id, user_id, search, "createdAt")
    select m.id, m."organizationId", m."userId", s.search, m."createdAt"
    from member m join user_search s on s.user_id = m."userId"`.execute(db);
  await sql`create index member_search_order_idx on member_search (organization_id, "createdAt", member_id)`.execute(
    db,
  );
  await sql`create index member_search_user_idx on member_search (user_id)`.execute(db);
  // pg_trgm as 0008 left it: installed when the database allowed it. Without it a search filters the organization's
  // rows, still without a join.
  const extension = await sql<{
    schema: string;
  }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
  const schema = extension.rows[0]?.schema;
  if (schema)
    await sql`
      create index member_search_trgm_idx on member_search using gin (search ${sql.id(schema)}.gin_trgm_ops)`.execute(
      db,
    );

  await sql`
    create function member_search_sync() returns trigger language plpgsql as $$
    begin
      insert into member_search (member_id, organization_id, user_id, search, "createdAt")
      select new.id, new."organizationId", new."userId", s.search, new."createdAt"
      from user_search s where s.user_id = new."userId"
      on conflict (member_id) do update set organization_id = excluded.organization_id, user_id = excluded.user_id,
        search = excluded.search, "createdAt" = excluded."createdAt";
      return null;
    end $$`.execute(db);
  await sql`
    create trigger member_search_insert after insert on member for each row
    execute function member_search_sync()`.execute(db);
  await sql`
    create trigger member_search_update after update of "organizationId", "userId", "createdAt" on member for each row
    when (old."organizationId" is distinct from new."organizationId" or old."userId" is distinct from new."userId"
      or old."createdAt" is distinct from new."createdAt")
    execute function member_search_sync()`.execute(db);
  await sql`
    create function member_search_follow_user() returns trigger language plpgsql as $$
    begin
      update member_search set search = new.search where user_id = new.user_id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger member_search_user_update after update of search on user_search for each row
    when (old.search is distinct from new.search) execute function member_search_follow_user()`.execute(db);
  await sql`analyze member_search`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect !== "postgres") return;
  await sql`drop trigger member_search_user_update on user_search`.execute(db);
  await sql`drop function member_search_follow_user()`.execute(db);
  await sql`drop trigger member_search_update on member`.execute(db);
  await sql`drop trigger member_search_insert on member`.execute(db);
  await sql`drop table member_search`.execute(db);
  await sql`drop function member_search_sync()`.execute(db);
}

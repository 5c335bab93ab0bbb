import type { Kysely } from "kysely";
import { sql } from "kysely";
import { columnTypes } from "./column-types";

/**
 * The platform-admin users list at 100,000 users: its search (a substring of name, e-mail or username) and its
 * sorts and filters answer from indexes instead of reading every user. Triggers on `user` keep the search
 * structures in step with every write, better-auth's included.
 *
 * SQLite: `user_search`, a contentless FTS5 trigram index, one row per user, whose rowid is the user's
 * `user_search_key.search_id`. Not the user table's own rowid: VACUUM may renumber the rowids of a table without an
 * INTEGER PRIMARY KEY. The key table maps both ways through indexes, so a search yields its rowids straight from the
 * index, a walk along a sort order tests a user against them with one lookup, and a rename or deletion finds its
 * row without reading the whole index.
 *
 * PostgreSQL: `user_search`, the three searched columns lowercased once when written, with GIN trigram indexes
 * (pg_trgm) for terms of three characters or more. A shorter term reads the whole table, which is narrow, with no
 * `lower()` per row. Where the extension cannot be installed (no privilege), every term does.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect === "sqlite") await createSqliteSearch(db);
  else await createPostgresSearch(db);

  // The sorts, each with the id that breaks its ties. The e-mail's unique index already orders it completely.
  await db.schema.createIndex("user_createdAt_id_idx").on("user").columns(["createdAt", "id"]).execute();
  await db.schema.createIndex("user_name_id_idx").on("user").columns(["name", "id"]).execute();
  // Users without a username sort first ascending and last descending on both databases (SQLite's own order), so
  // PostgreSQL's index puts nulls first to be read in either direction.
  const username = dialect === "postgres" ? sql`"username" nulls first` : sql`"username"`;
  await sql`create index "user_username_id_idx" on "user" (${username}, "id")`.execute(db);
  // Banned users are few: the "banned" filter reads only them.
  await db.schema
    .createIndex("user_banned_createdAt_idx")
    .on("user")
    .columns(["createdAt", "id"])
    .where(sql.ref("banned"), "=", sql.lit(dialect === "postgres" ? true : 1))
    .execute();
}

async function createSqliteSearch(db: Kysely<unknown>): Promise<void> {
  await sql`create table user_search_key (search_id integer primary key, user_id text not null unique)`.execute(db);
  // contentless_delete: the index keeps no copy of the columns, yet rows can still be deleted and replaced.
  await sql`create virtual table user_search using fts5(name, email, username, content = '', contentless_delete = 1, tokenize = 'trigram')`.execute(
    db,
  );
  await sql`insert into user_search_key (user_id) select id from "user"`.execute(db);
  await sql`
    insert into user_search (rowid, name, email, username)
    select k.search_id, u.name, u.email, u.username from user_search_key k join "user" u on u.id = k.user_id`.execute(
    db,
  );
  await sql`
    create trigger user_search_insert after insert on "user" begin
      insert into user_search_key (user_id) values (new.id);
      insert into user_search (rowid, name, email, username)
      values ((select search_id from user_search_key where user_id = new.id), new.name, new.email, new.username);
    end`.execute(db);
  await sql`
    create trigger user_search_delete after delete on "user" begin
      delete from user_search where rowid = (select search_id from user_search_key where user_id = old.id);
      delete from user_search_key where user_id = old.id;
    end`.execute(db);
  await sql`
    create trigger user_search_update after update of name, email, username on "user"
    when old.name is not new.name or old.email is not new.email or old.username is not new.username begin
      update user_search set name = new.name, email = new.email, username = new.username
      where rowid = (select search_id from user_search_key where user_id = new.id);
    end`.execute(db);
}

async function createPostgresSearch(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table user_search (
      user_id text primary key references "user" (id) on delete cascade,
      name text not null,
      email text not null,
      username text
    )`.execute(db);
  await sql`insert into user_search (user_id, name, email, username) select id, lower(name), lower(email), lower(username) from "user"`.execute(
    db,
  );
  // The planner's statistics now, rather than when autovacuum first gets to the table: without them it guesses badly.
  await sql`analyze user_search`.execute(db);
  await sql`
    create function user_search_sync() returns trigger language plpgsql as $$
    begin
      insert into user_search (user_id, name, email, username) values (new.id, lower(new.name), lower(new.email), lower(new.username))
      on conflict (user_id) do update set name = excluded.name, email = excluded.email, username = excluded.username;
      return null;
    end $$`.execute(db);
  await sql`create trigger user_search_insert after insert on "user" for each row execute function user_search_sync()`.execute(
    db,
  );
  await sql`
    create trigger user_search_update after update of name, email, username on "user" for each row
    when (old.name is distinct from new.name or old.email is distinct from new.email or old.username is distinct from new.username)
    execute function user_search_sync()`.execute(db);

  // Installing an extension needs a privilege a managed or test database may not grant; the migration goes on without it.
  await sql`
    do $$ begin
      create extension if not exists pg_trgm;
    exception when others then
      raise notice 'pg_trgm is not available (%): the users search reads every user', sqlerrm;
    end $$`.execute(db);
  const extension = await sql<{
    schema: string;
  }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
  const schema = extension.rows[0]?.schema;
  if (!schema) return;
  // Qualified: the extension may live in a schema that is not on the search path.
  const opclass = sql`${sql.id(schema)}.gin_trgm_ops`;
  for (const column of ["name", "email", "username"]) {
    await sql`create index ${sql.id(`user_search_${column}_trgm_idx`)} on user_search using gin (${sql.id(column)} ${opclass})`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  for (const index of [
    "user_banned_createdAt_idx",
    "user_username_id_idx",
    "user_name_id_idx",
    "user_createdAt_id_idx",
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  for (const trigger of ["user_search_insert", "user_search_update", "user_search_delete"]) {
    await sql`drop trigger if exists ${sql.id(trigger)}${sql.raw(dialect === "postgres" ? ` on "user"` : "")}`.execute(
      db,
    );
  }
  // The trigram indexes go with the table. The extension stays: it belongs to the whole database and may have been there before.
  await sql`drop table user_search`.execute(db);
  if (dialect === "postgres") await sql`drop function user_search_sync()`.execute(db);
  else await sql`drop table user_search_key`.execute(db);
}

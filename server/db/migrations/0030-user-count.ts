import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * PostgreSQL: the number of users without counting them. The admin console's unfiltered list shows the total, and
 * `count(*)` over 1,000,000 users took 52 to 71 ms on every request (docs/performance.md). Each statement that
 * inserts or deletes users appends its change to `user_count_delta` (a trigger over the statement's rows); the total
 * is their sum, exact within any transaction. Appending takes no lock another writer waits on, as one counter row
 * would (a sign-up waiting on an account deletion); the reader folds the rows into one now and then
 * (admin.repository.ts).
 *
 * SQLite counts users from its smallest index, and serves the sizes it is meant for without it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect !== "postgres") return;
  await sql`create table user_count_delta (id bigserial primary key, delta bigint not null)`.execute(db);
  await sql`insert into user_count_delta (delta) select count(*) from "user"`.execute(db);
  await sql`
    create function user_count_added() returns trigger language plpgsql as $$
    begin
      insert into user_count_delta (delta) select count(*) from added having count(*) > 0;
      return null;
    end $$`.execute(db);
  await sql`
    create function user_count_removed() returns trigger language plpgsql as $$
    begin
      insert into user_count_delta (delta) select -count(*) from removed having count(*) > 0;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger user_count_insert after insert on "user" referencing new table as added
    for each statement execute function user_count_added()`.execute(db);
  await sql`
    create trigger user_count_delete after delete on "user" referencing old table as removed
    for each statement execute function user_count_removed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect !== "postgres") return;
  await sql`drop trigger user_count_delete on "user"`.execute(db);
  await sql`drop trigger user_count_insert on "user"`.execute(db);
  await sql`drop function user_count_removed()`.execute(db);
  await sql`drop function user_count_added()`.execute(db);
  await sql`drop table user_count_delta`.execute(db);
}

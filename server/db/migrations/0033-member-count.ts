import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * PostgreSQL: an organization's number of members without counting them. The members list shows the total on every
 * page, and counting an organization of 10,000 read its 10,000 index entries, about 1 ms of the database a request.
 * Each statement that adds, removes or moves memberships appends its change per organization to
 * `member_count_delta` (triggers over the statement's rows), as migration 0030 does for users; the total is the sum
 * of the organization's rows, exact within any transaction, and the reader folds them into one now and then
 * (organizations.repository.ts). An organization's deletion leaves rows that sum to zero, two small rows.
 *
 * SQLite counts the organization's index entries, and serves the sizes it is meant for without it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect !== "postgres") return;
  await sql`create table member_count_delta (
    id bigserial primary key, organization_id text not null, delta bigint not null)`.execute(db);
  await sql`create index member_count_delta_organization_idx on member_count_delta (organization_id)`.execute(db);
  await sql`insert into member_count_delta (organization_id, delta)
    select "organizationId", count(*) from member group by "organizationId"`.execute(db);
  const append = (rows: string) => `insert into member_count_delta (organization_id, delta)
    select "organizationId", sum(delta) from (${rows}) as changed group by "organizationId" having sum(delta) <> 0;`;
  const functions = {
    added: append(`select "organizationId", 1 as delta from added`),
    removed: append(`select "organizationId", -1 as delta from removed`),
    // A role change sums to zero and appends nothing; a membership moved to another organization moves its count.
    changed: append(
      `select "organizationId", -1 as delta from removed union all select "organizationId", 1 from added`,
    ),
  };
  for (const [name, body] of Object.entries(functions))
    await sql
      .raw(
        `create function member_count_${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`,
      )
      .execute(db);
  const triggers = {
    insert: `after insert on member referencing new table as added for each statement
      execute function member_count_added()`,
    delete: `after delete on member referencing old table as removed for each statement
      execute function member_count_removed()`,
    update: `after update on member referencing old table as removed new table as added for each statement
      execute function member_count_changed()`,
  };
  for (const [event, trigger] of Object.entries(triggers))
    await sql.raw(`create trigger member_count_${event} ${trigger}`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect !== "postgres") return;
  for (const event of ["insert", "delete", "update"])
    await sql.raw(`drop trigger member_count_${event} on member`).execute(db);
  for (const name of ["added", "removed", "changed"]) await sql.raw(`drop function member_count_${name}()`).execute(db);
  await sql`drop table member_count_delta`.execute(db);
}

import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Invitations join migration 0009's change feed: better-auth's `get-full-organization` shows an organization's
 * invitations, and its answers are now replayed (server/auth/session-reads.ts), so a new, answered or cancelled
 * invitation makes its organization's kept answers stale, as a member's or a team's change does.
 */
const NAME = "cache_invalidation_invitation";
const record = (row: "old" | "new") =>
  `insert into cache_invalidation (organization_id) values (${row}."organizationId");`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect === "sqlite") {
    const bodies = { insert: record("new"), update: `${record("old")} ${record("new")}`, delete: record("old") };
    for (const [event, body] of Object.entries(bodies))
      await sql.raw(`create trigger ${NAME}_${event} after ${event} on "invitation" begin ${body} end`).execute(db);
    return;
  }
  const body = `if tg_op <> 'INSERT' then ${record("old")} end if; if tg_op <> 'DELETE' then ${record("new")} end if;`;
  await sql
    .raw(`create function ${NAME}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`)
    .execute(db);
  await sql
    .raw(
      `create trigger ${NAME} after insert or update or delete on "invitation" for each row execute function ${NAME}()`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect === "sqlite") {
    for (const event of ["insert", "update", "delete"])
      await sql.raw(`drop trigger if exists ${NAME}_${event}`).execute(db);
    return;
  }
  await sql.raw(`drop trigger if exists ${NAME} on "invitation"`).execute(db);
  await sql.raw(`drop function if exists ${NAME}()`).execute(db);
}

import type { Kysely } from "kysely";
import { sql } from "kysely";
import { columnTypes } from "./column-types";

/**
 * The change feed of the read cache (server/db/read-cache.ts, docs/decisions/0012): a row per user or organization
 * whose cached reads a write made stale, inserted by triggers in the writing transaction itself. Every writer is
 * covered (better-auth, the app's own queries, the command line, another instance), and a rolled-back write
 * invalidates nothing. Each instance reads the rows after the last one it saw, a few times a second.
 *
 * What the cached reads show, and so what is watched:
 * - a session and its user (get-session): updates and deletions of `session` and `user`;
 * - a user's organizations and memberships (organization/list, get-active-member, the membership check of the
 *   organization routes): `member` and `organization`;
 * - an organization's members with their users and teams (the members list): `member`, `user` (fanned out to the
 *   user's organizations), `team` and `teamMember`.
 * Inserting a session or a user changes no cached answer: nothing cached names a row that did not exist.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  const id = dialect === "sqlite" ? "integer primary key autoincrement" : "bigserial primary key";
  const now = dialect === "sqlite" ? "(unixepoch())" : "extract(epoch from now())::bigint";
  await sql
    .raw(
      `create table cache_invalidation (id ${id}, user_id text, organization_id text, created_at bigint not null default ${now})`,
    )
    .execute(db);
  // The retention purge deletes by age.
  await db.schema
    .createIndex("cache_invalidation_created_at_idx")
    .on("cache_invalidation")
    .column("created_at")
    .execute();
  for (const watched of WATCHED) {
    if (dialect === "sqlite") await createSqliteTriggers(db, watched);
    else await createPostgresTrigger(db, watched);
  }
}

type Row = "old" | "new";
type Watched = {
  table: string;
  events: Array<"insert" | "update" | "delete">;
  /** The statements that record what `row` makes stale. */
  invalidate: (row: Row) => string;
  /** An update can move the row to another user or organization: the new row's keys are stale too. */
  isMovable: boolean;
};

const forUser = (row: Row, column: string) => `insert into cache_invalidation (user_id) values (${row}."${column}");`;
const forOrganization = (row: Row, column: string) =>
  `insert into cache_invalidation (organization_id) values (${row}."${column}");`;

const WATCHED: Watched[] = [
  { table: "session", events: ["update", "delete"], invalidate: (row) => forUser(row, "userId"), isMovable: false },
  {
    table: "user",
    events: ["update", "delete"],
    invalidate: (row) =>
      `${forUser(row, "id")} insert into cache_invalidation (organization_id) select "organizationId" from "member" where "userId" = ${row}."id";`,
    isMovable: false,
  },
  {
    table: "member",
    events: ["insert", "update", "delete"],
    invalidate: (row) =>
      `insert into cache_invalidation (user_id, organization_id) values (${row}."userId", ${row}."organizationId");`,
    isMovable: true,
  },
  {
    table: "organization",
    events: ["update", "delete"],
    invalidate: (row) => forOrganization(row, "id"),
    isMovable: false,
  },
  {
    table: "team",
    events: ["insert", "update", "delete"],
    invalidate: (row) => forOrganization(row, "organizationId"),
    isMovable: true,
  },
  {
    table: "teamMember",
    events: ["insert", "update", "delete"],
    invalidate: (row) =>
      `insert into cache_invalidation (user_id, organization_id) select ${row}."userId", "organizationId" from "team" where "id" = ${row}."teamId";`,
    isMovable: true,
  },
];

const triggerName = (table: string, event: string) => `cache_invalidation_${table}_${event}`;

/** SQLite: one trigger per event, `old` for the row an update or deletion replaced, `new` for an insert's. */
async function createSqliteTriggers(
  db: Kysely<unknown>,
  { table, events, invalidate, isMovable }: Watched,
): Promise<void> {
  for (const event of events) {
    const body =
      event === "insert"
        ? invalidate("new")
        : `${invalidate("old")}${event === "update" && isMovable ? invalidate("new") : ""}`;
    await sql
      .raw(`create trigger ${triggerName(table, event)} after ${event} on "${table}" begin ${body} end`)
      .execute(db);
  }
}

/** PostgreSQL: one trigger function per table, which picks the rows by `tg_op`. */
async function createPostgresTrigger(
  db: Kysely<unknown>,
  { table, events, invalidate, isMovable }: Watched,
): Promise<void> {
  const name = triggerName(table, "change");
  const newRowOps = ["'INSERT'", ...(isMovable ? ["'UPDATE'"] : [])].join(", ");
  const body = `if tg_op <> 'INSERT' then ${invalidate("old")} end if; if tg_op in (${newRowOps}) then ${invalidate("new")} end if;`;
  await sql
    .raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`)
    .execute(db);
  await sql
    .raw(`create trigger ${name} after ${events.join(" or ")} on "${table}" for each row execute function ${name}()`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  for (const { table, events } of WATCHED) {
    if (dialect === "sqlite") {
      for (const event of events) await sql.raw(`drop trigger if exists ${triggerName(table, event)}`).execute(db);
    } else {
      await sql.raw(`drop trigger if exists ${triggerName(table, "change")} on "${table}"`).execute(db);
      await sql.raw(`drop function if exists ${triggerName(table, "change")}()`).execute(db);
    }
  }
  await db.schema.dropTable("cache_invalidation").execute();
}

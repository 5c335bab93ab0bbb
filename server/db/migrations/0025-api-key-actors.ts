import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * An organization API key acts as itself (docs/api-keys.md, docs/decisions/0024):
 * - `audit_event.actor_type` says what the actor is: `user` (a person, by their id), `api_key` (a key, by its id),
 *   `scim_token` (a directory's token, by its name) or `command_line` (`npm run admin`). Rows written before it are
 *   classified by what they hold: no actor id and the label "command line" is the command line, no actor id and any
 *   other label but "anonymous" is a directory, an actor id of a key is that key.
 * - `invitation.inviterId` may be null: an invitation a key sends has no inviter, and its mail names the
 *   organization. SQLite cannot drop a NOT NULL constraint, so there the table is rebuilt with its indexes (no table
 *   refers to it and no trigger watches it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("audit_event")
    .addColumn("actor_type", "text", (col) => col.notNull().defaultTo("user"))
    .execute();
  await sql`update audit_event set actor_type = 'command_line'
    where actor_id is null and actor_label = 'command line'`.execute(db);
  await sql`update audit_event set actor_type = 'scim_token'
    where actor_id is null and actor_label not in ('command line', 'anonymous')`.execute(db);
  await sql`update audit_event set actor_type = 'api_key' where actor_id in (select id from api_key)`.execute(db);
  await setInviterRequired(db, false);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("audit_event").dropColumn("actor_type").execute();
  // Invitations without an inviter cannot stay once the column is required again.
  await sql`delete from invitation where "inviterId" is null`.execute(db);
  await setInviterRequired(db, true);
}

async function setInviterRequired(db: Kysely<unknown>, required: boolean): Promise<void> {
  const { dialect, timestamp } = await columnTypes(db);
  if (dialect === "postgres") {
    await sql`alter table invitation alter column "inviterId" ${sql.raw(required ? "set" : "drop")} not null`.execute(
      db,
    );
    return;
  }
  const ts = timestamp as "timestamptz";
  await db.schema
    .createTable("invitation_rebuilt")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("organizationId", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("role", "text")
    .addColumn("teamId", "text")
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("expiresAt", ts, (col) => col.notNull())
    .addColumn("createdAt", ts, (col) => col.notNull())
    .addColumn("inviterId", "text", (col) => {
      const inviter = col.references("user.id").onDelete("cascade");
      return required ? inviter.notNull() : inviter;
    })
    .execute();
  const columns = sql.raw(
    `"id", "organizationId", "email", "role", "teamId", "status", "expiresAt", "createdAt", "inviterId"`,
  );
  await sql`insert into invitation_rebuilt (${columns}) select ${columns} from invitation`.execute(db);
  await db.schema.dropTable("invitation").execute();
  await sql`alter table invitation_rebuilt rename to invitation`.execute(db);
  // The indexes of migrations 0001 and 0003, which went with the old table.
  await db.schema.createIndex("invitation_organizationId_idx").on("invitation").column("organizationId").execute();
  await db.schema.createIndex("invitation_email_idx").on("invitation").column("email").execute();
  await db.schema
    .createIndex("invitation_pending_email_key")
    .on("invitation")
    .columns(["organizationId", "email"])
    .unique()
    .where(sql.ref("status"), "=", sql.lit("pending"))
    .execute();
}

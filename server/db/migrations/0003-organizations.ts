import type { Kysely } from "kysely";
import { sql } from "kysely";

/**
 * One pending invitation per e-mail and organization, guaranteed by the database: two concurrent invites
 * cannot both land. Resending renews the pending row instead of adding one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("invitation_pending_email_key")
    .on("invitation")
    .columns(["organizationId", "email"])
    .unique()
    .where(sql.ref("status"), "=", sql.lit("pending"))
    .execute();
  await db.schema
    .createIndex("teamMember_teamId_userId_key")
    .on("teamMember")
    .columns(["teamId", "userId"])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("teamMember_teamId_userId_key").execute();
  await db.schema.dropIndex("invitation_pending_email_key").execute();
}

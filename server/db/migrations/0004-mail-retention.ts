import type { Kysely } from "kysely";

/** Indexes for the outbox worker's purge of old mail, which deletes by age: without them it would read every row. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("mail_outbox_status_created_idx")
    .on("mail_outbox")
    .columns(["status", "created_at"])
    .execute();
  await db.schema.createIndex("dev_mailbox_created_idx").on("dev_mailbox").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("dev_mailbox_created_idx").execute();
  await db.schema.dropIndex("mail_outbox_status_created_idx").execute();
}

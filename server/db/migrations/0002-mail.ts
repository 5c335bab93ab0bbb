import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/** The transactional mail outbox and the development mailbox that keeps mail when no SMTP is set. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = (await columnTypes(db)).timestamp as "timestamptz";
  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("to_address", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("text_body", "text", (col) => col.notNull())
    .addColumn("html_body", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", ts, (col) => col.notNull())
    .addColumn("last_error", "text")
    .addColumn("created_at", ts, (col) => col.notNull())
    .addColumn("sent_at", ts)
    .execute();
  await db.schema
    .createIndex("mail_outbox_status_next_attempt_idx")
    .on("mail_outbox")
    .columns(["status", "next_attempt_at"])
    .execute();

  await db.schema
    .createTable("dev_mailbox")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("to_address", "text", (col) => col.notNull())
    .addColumn("subject", "text", (col) => col.notNull())
    .addColumn("text_body", "text", (col) => col.notNull())
    .addColumn("html_body", "text", (col) => col.notNull())
    .addColumn("created_at", ts, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("dev_mailbox_to_created_idx")
    .on("dev_mailbox")
    .columns(["to_address", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("dev_mailbox").execute();
  await db.schema.dropTable("mail_outbox").execute();
}

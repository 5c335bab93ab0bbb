import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Outbound webhooks (docs/decisions/0025): an organization's endpoints, the outbox of messages to deliver to them
 * (one row per endpoint and event, written in the transaction of the change), each delivery attempt, and the
 * development receiver's inbox.
 *
 * - `webhook_message.seq` orders an endpoint's messages: an integer the database counts up (SQLite's rowid alias,
 *   PostgreSQL's identity), so two events of one transaction keep their order, which timestamps would not.
 * - An endpoint's secret is kept next to the previous one until `previous_secret_expires_at` (a rotation).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { boolean, timestamp, dialect } = await columnTypes(db);
  const ts = timestamp as "timestamptz";
  await db.schema
    .createTable("webhook_endpoint")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("organization_id", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("url", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("events", "text", (col) => col.notNull())
    .addColumn("enabled", boolean as "boolean", (col) => col.notNull().defaultTo(true))
    .addColumn("disabled_reason", "text")
    .addColumn("secret", "text", (col) => col.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_secret_expires_at", ts)
    .addColumn("failing_since", ts)
    .addColumn("created_at", ts, (col) => col.notNull())
    .addColumn("updated_at", ts, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("webhook_endpoint_organization_idx")
    .on("webhook_endpoint")
    .column("organization_id")
    .execute();

  await db.schema
    .createTable("webhook_message")
    .addColumn("seq", "integer", (col) =>
      dialect === "sqlite" ? col.primaryKey().autoIncrement() : col.primaryKey().generatedAlwaysAsIdentity(),
    )
    .addColumn("id", "text", (col) => col.notNull().unique())
    .addColumn("endpoint_id", "text", (col) => col.notNull().references("webhook_endpoint.id").onDelete("cascade"))
    .addColumn("event_type", "text", (col) => col.notNull())
    .addColumn("payload", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", ts, (col) => col.notNull())
    .addColumn("created_at", ts, (col) => col.notNull())
    .addColumn("finished_at", ts)
    .execute();
  await db.schema
    .createIndex("webhook_message_endpoint_status_idx")
    .on("webhook_message")
    .columns(["endpoint_id", "status", "seq"])
    .execute();
  await db.schema
    .createIndex("webhook_message_status_next_attempt_idx")
    .on("webhook_message")
    .columns(["status", "next_attempt_at"])
    .execute();

  await db.schema
    .createTable("webhook_attempt")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("message_id", "text", (col) => col.notNull().references("webhook_message.id").onDelete("cascade"))
    .addColumn("endpoint_id", "text", (col) => col.notNull().references("webhook_endpoint.id").onDelete("cascade"))
    .addColumn("attempt", "integer", (col) => col.notNull())
    .addColumn("attempted_at", ts, (col) => col.notNull())
    .addColumn("status_code", "integer")
    .addColumn("duration_ms", "integer", (col) => col.notNull())
    .addColumn("response_excerpt", "text")
    .addColumn("error", "text")
    .execute();
  await db.schema
    .createIndex("webhook_attempt_endpoint_idx")
    .on("webhook_attempt")
    .columns(["endpoint_id", "attempted_at"])
    .execute();

  await db.schema
    .createTable("dev_webhook_receipt")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("received_at", ts, (col) => col.notNull())
    .addColumn("headers", "text", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull())
    .addColumn("verified", boolean as "boolean", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("dev_webhook_receipt").execute();
  await db.schema.dropTable("webhook_attempt").execute();
  await db.schema.dropTable("webhook_message").execute();
  await db.schema.dropTable("webhook_endpoint").execute();
}

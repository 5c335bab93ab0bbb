import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Billing per organization (docs/decisions/0008): the organization's provider customer, the local projection of
 * the provider's objects, the webhook inbox and the usage outbox. Provider timestamps (`modified_at`) are kept as
 * normalised ISO text, so "is this newer" is the same string comparison on both databases.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = (await columnTypes(db)).timestamp as "timestamptz";

  await db.schema
    .createTable("billing_customer")
    .addColumn("organization_id", "text", (col) =>
      col.primaryKey().notNull().references("organization.id").onDelete("cascade"),
    )
    .addColumn("customer_id", "text")
    .addColumn("state", "text")
    .addColumn("state_at", "text")
    .addColumn("payment_method", "text")
    .addColumn("synced_at", ts)
    .addColumn("created_at", ts, (col) => col.notNull())
    .execute();
  await db.schema.createIndex("billing_customer_customer_idx").on("billing_customer").column("customer_id").execute();

  await db.schema
    .createTable("billing_object")
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("id", "text", (col) => col.notNull())
    .addColumn("organization_id", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("modified_at", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("data", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("billing_object_pk", ["kind", "id"])
    .execute();
  await db.schema
    .createIndex("billing_object_organization_idx")
    .on("billing_object")
    .columns(["organization_id", "kind", "created_at"])
    .execute();

  await db.schema
    .createTable("billing_webhook_event")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("payload", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", ts, (col) => col.notNull())
    .addColumn("last_error", "text")
    .addColumn("organization_id", "text")
    .addColumn("received_at", ts, (col) => col.notNull())
    .addColumn("applied_at", ts)
    .execute();
  await db.schema
    .createIndex("billing_webhook_event_status_idx")
    .on("billing_webhook_event")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("billing_webhook_event_received_idx")
    .on("billing_webhook_event")
    .columns(["status", "received_at"])
    .execute();

  await db.schema
    .createTable("billing_usage_event")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("organization_id", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("idempotency_key", "text", (col) => col.notNull())
    .addColumn("event_name", "text", (col) => col.notNull())
    .addColumn("quantity", "integer", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", ts, (col) => col.notNull())
    .addColumn("last_error", "text")
    .addColumn("created_at", ts, (col) => col.notNull())
    .addColumn("sent_at", ts)
    .addUniqueConstraint("billing_usage_event_key_unique", ["organization_id", "idempotency_key"])
    .execute();
  await db.schema
    .createIndex("billing_usage_event_status_idx")
    .on("billing_usage_event")
    .columns(["status", "next_attempt_at"])
    .execute();
  await db.schema
    .createIndex("billing_usage_event_sent_idx")
    .on("billing_usage_event")
    .columns(["status", "sent_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("billing_usage_event").execute();
  await db.schema.dropTable("billing_webhook_event").execute();
  await db.schema.dropTable("billing_object").execute();
  await db.schema.dropTable("billing_customer").execute();
}

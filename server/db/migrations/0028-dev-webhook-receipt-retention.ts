import type { Kysely } from "kysely";

/**
 * The development webhook receiver's inbox (`dev_webhook_receipt`, /dev/webhooks) is purged with the delivery history
 * (docs/webhooks.md#how-long-deliveries-are-kept): receipts older than `WEBHOOK_RETENTION_DAYS` go hourly, in bounded
 * batches. An index on `received_at` finds each batch without reading the whole inbox, and serves the receiver's page,
 * which shows the newest receipts first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("dev_webhook_receipt_received_idx")
    .on("dev_webhook_receipt")
    .column("received_at")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("dev_webhook_receipt_received_idx").execute();
}

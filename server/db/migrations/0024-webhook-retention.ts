import type { Kysely } from "kysely";

/**
 * Indexes for the purge of old webhook history (docs/webhooks.md#how-long-deliveries-are-kept), which deletes finished
 * messages by age in bounded batches:
 * - `webhook_message (status, finished_at)` finds a batch of delivered or given-up messages finished before the
 *   cutoff without reading the messages still to deliver;
 * - `webhook_attempt (message_id)` serves the foreign key's cascade: each deleted message's attempts are found
 *   through it rather than by reading every attempt, on both databases.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("webhook_message_status_finished_idx")
    .on("webhook_message")
    .columns(["status", "finished_at"])
    .execute();
  await db.schema.createIndex("webhook_attempt_message_idx").on("webhook_attempt").column("message_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("webhook_attempt_message_idx").execute();
  await db.schema.dropIndex("webhook_message_status_finished_idx").execute();
}

import type { Kysely } from "kysely";

/**
 * The app's own running count of usage per organization, meter and billing period, so the billing page shows
 * recorded usage at once rather than after the provider's next state change. Incremented in the transaction that
 * queues the usage record; the reconciliation sets it to the provider's count plus what is still queued.
 * `period_start` is the subscription's current period start as the provider gives it (an ISO instant, kept as text:
 * a key compared for equality). `quantity` is a bigint: a million a record adds up past 32 bits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("billing_usage_count")
    .addColumn("organization_id", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("meter_id", "text", (col) => col.notNull())
    .addColumn("period_start", "text", (col) => col.notNull())
    .addColumn("quantity", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("billing_usage_count_pk", ["organization_id", "meter_id", "period_start"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("billing_usage_count").execute();
}

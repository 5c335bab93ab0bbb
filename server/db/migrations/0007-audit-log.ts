import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * The audit log (docs/decisions/0010): one row per privileged or organization change, written in the change's own
 * transaction. No foreign keys: an entry outlives the user, organization or team it is about, so its labels are
 * copies of the names at the time. Only the retention purge deletes rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = (await columnTypes(db)).timestamp as "timestamptz";
  await db.schema
    .createTable("audit_event")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("created_at", ts, (col) => col.notNull())
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("actor_id", "text")
    .addColumn("actor_label", "text", (col) => col.notNull())
    .addColumn("impersonator_id", "text")
    .addColumn("impersonator_label", "text")
    .addColumn("target_type", "text")
    .addColumn("target_id", "text")
    .addColumn("target_label", "text")
    .addColumn("organization_id", "text")
    .addColumn("organization_name", "text")
    .addColumn("ip_address", "text")
    .addColumn("user_agent", "text")
    .addColumn("reason", "text")
    .addColumn("details", "text")
    .execute();
  // The views: newest first overall, per organization, about one target, by one actor; and the purge by age.
  await db.schema.createIndex("audit_event_created_idx").on("audit_event").columns(["created_at", "id"]).execute();
  await db.schema
    .createIndex("audit_event_organization_idx")
    .on("audit_event")
    .columns(["organization_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("audit_event_target_idx")
    .on("audit_event")
    .columns(["target_id", "created_at"])
    .execute();
  await db.schema.createIndex("audit_event_actor_idx").on("audit_event").columns(["actor_id", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("audit_event").execute();
}

import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Organization API keys (docs/decisions/0024, docs/api-keys.md): one row per key, bound to its organization (deleted
 * with it), holding the SHA-256 of the secret, never the secret. `prefix` is the key's first characters, shown in
 * lists so people can tell keys apart. `scopes` is a JSON array of scope names (common/api-key.schemas.ts).
 *
 * The hot path verifies keys from the read cache (server/db/read-cache.ts), so a revocation must reach the change
 * feed of migration 0009: triggers record the key's organization when `revoked_at` changes or the row goes. Updating
 * `last_used_at` records nothing, or every use of a key would drop it from every instance's cache.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { dialect, timestamp } = await columnTypes(db);
  const ts = timestamp as "timestamptz";
  await db.schema
    .createTable("api_key")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("organization_id", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("prefix", "text", (col) => col.notNull())
    .addColumn("key_hash", "text", (col) => col.notNull().unique())
    .addColumn("scopes", "text", (col) => col.notNull())
    .addColumn("created_by", "text", (col) => col.references("user.id").onDelete("set null"))
    .addColumn("created_at", ts, (col) => col.notNull())
    .addColumn("expires_at", ts)
    .addColumn("last_used_at", ts)
    .addColumn("revoked_at", ts)
    .execute();
  await db.schema.createIndex("api_key_organization_idx").on("api_key").column("organization_id").execute();
  const record = (row: "old") => `insert into cache_invalidation (organization_id) values (${row}."organization_id");`;
  if (dialect === "sqlite") {
    await sql
      .raw(
        `create trigger cache_invalidation_api_key_update after update of revoked_at on api_key begin ${record("old")} end`,
      )
      .execute(db);
    await sql
      .raw(`create trigger cache_invalidation_api_key_delete after delete on api_key begin ${record("old")} end`)
      .execute(db);
  } else {
    await sql
      .raw(
        `create function cache_invalidation_api_key_change() returns trigger language plpgsql as $$ begin ${record("old")} return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger cache_invalidation_api_key_change after update of revoked_at or delete on api_key for each row execute function cache_invalidation_api_key_change()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { dialect } = await columnTypes(db);
  if (dialect === "sqlite") {
    await sql.raw(`drop trigger if exists cache_invalidation_api_key_update`).execute(db);
    await sql.raw(`drop trigger if exists cache_invalidation_api_key_delete`).execute(db);
  } else {
    await sql.raw(`drop trigger if exists cache_invalidation_api_key_change on api_key`).execute(db);
    await sql.raw(`drop function if exists cache_invalidation_api_key_change()`).execute(db);
  }
  await db.schema.dropTable("api_key").execute();
}

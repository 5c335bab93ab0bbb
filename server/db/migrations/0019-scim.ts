import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * SCIM 2.0 provisioning per organization (docs/decisions/0023, docs/scim.md).
 *
 * - `scim_token`: an organization's directory connections, one bearer token each. Only the token's SHA-256 digest is
 *   kept (the secret is shown once); `name` is the connection's name (the plugin's `providerId`) and the audit actor.
 *   Revoked tokens stay listed until the organization goes.
 * - `scim_user`: a person the directory provisioned into the organization (the SCIM User resource): its userName
 *   (unique per organization without case, `user_name_key`), externalId and profile, and whether it is active (an
 *   inactive one keeps its row but not its membership). One SCIM User per user and organization.
 * - `scim_group`: a team the directory created (the SCIM Group resource, whose id is the team's), with its externalId.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { boolean, timestamp } = await columnTypes(db);
  await db.schema
    .createTable("scim_token")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("organization_id", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("token_hash", "text", (col) => col.notNull().unique())
    .addColumn("created_by", "text", (col) => col.references("user.id").onDelete("set null"))
    .addColumn("created_at", timestamp as "timestamptz", (col) => col.notNull())
    .addColumn("last_used_at", timestamp as "timestamptz")
    .addColumn("revoked_at", timestamp as "timestamptz")
    .execute();
  await db.schema.createIndex("scim_token_organization_idx").on("scim_token").column("organization_id").execute();
  await db.schema
    .createTable("scim_user")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("organization_id", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull().references("user.id").onDelete("cascade"))
    .addColumn("user_name", "text", (col) => col.notNull())
    .addColumn("user_name_key", "text", (col) => col.notNull())
    .addColumn("external_id", "text")
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("given_name", "text")
    .addColumn("family_name", "text")
    .addColumn("display_name", "text")
    .addColumn("active", boolean as "boolean", (col) => col.notNull())
    .addColumn("created_at", timestamp as "timestamptz", (col) => col.notNull())
    .addColumn("updated_at", timestamp as "timestamptz", (col) => col.notNull())
    .addUniqueConstraint("scim_user_user_name_key", ["organization_id", "user_name_key"])
    .addUniqueConstraint("scim_user_user_key", ["organization_id", "user_id"])
    .execute();
  await db.schema
    .createTable("scim_group")
    .addColumn("team_id", "text", (col) => col.primaryKey().notNull().references("team.id").onDelete("cascade"))
    .addColumn("organization_id", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("external_id", "text")
    .addColumn("created_at", timestamp as "timestamptz", (col) => col.notNull())
    .addColumn("updated_at", timestamp as "timestamptz", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("scim_group_organization_idx").on("scim_group").column("organization_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("scim_group").execute();
  await db.schema.dropTable("scim_user").execute();
  await db.schema.dropTable("scim_token").execute();
}

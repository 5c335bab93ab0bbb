import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * Enterprise SSO (docs/decisions/0021): @better-auth/sso's `ssoProvider` table, with the app's own rules in the
 * schema, and the organization's `requireSso` policy.
 *
 * - `domainVerificationToken`: the value of the DNS TXT record the organization publishes, kept with the provider
 *   until its domain is verified (an additional field of the plugin's, never returned by its endpoints).
 * - One verified provider per domain, across every organization: a partial unique index, so two organizations that
 *   verify the same domain at the same moment cannot both succeed (the second insert-or-update fails).
 * - A provider belongs to its organization (deleted with it); the user who registered it may leave.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { boolean, dialect } = await columnTypes(db);
  await db.schema
    .createTable("ssoProvider")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("issuer", "text", (col) => col.notNull())
    .addColumn("oidcConfig", "text")
    .addColumn("samlConfig", "text")
    .addColumn("userId", "text", (col) => col.references("user.id").onDelete("set null"))
    .addColumn("providerId", "text", (col) => col.notNull().unique())
    .addColumn("organizationId", "text", (col) => col.references("organization.id").onDelete("cascade"))
    .addColumn("domain", "text", (col) => col.notNull())
    .addColumn("domainVerified", boolean as "boolean", (col) => col.notNull().defaultTo(false))
    .addColumn("domainVerificationToken", "text")
    .execute();
  await db.schema.createIndex("ssoProvider_organizationId_idx").on("ssoProvider").column("organizationId").execute();
  await db.schema.createIndex("ssoProvider_domain_idx").on("ssoProvider").column("domain").execute();
  const verified = dialect === "sqlite" ? sql<boolean>`"domainVerified" = 1` : sql<boolean>`"domainVerified" = true`;
  await db.schema
    .createIndex("ssoProvider_verified_domain_key")
    .on("ssoProvider")
    .column("domain")
    .unique()
    .where(verified)
    .execute();
  await db.schema
    .alterTable("organization")
    .addColumn("requireSso", boolean as "boolean", (col) => col.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("organization").dropColumn("requireSso").execute();
  await db.schema.dropTable("ssoProvider").execute();
}

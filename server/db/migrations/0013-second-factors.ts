import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * better-auth's tables for second factors: the two-factor plugin's (a TOTP secret and backup codes per user, both
 * stored encrypted with the auth secret, with a failed-attempt count and a lock) and @better-auth/passkey's (a
 * WebAuthn credential per row: its public key, signature counter and AAGUID). Names and types follow the plugins'
 * schemas; migrations.int.test.ts asserts that better-auth finds nothing missing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { boolean, timestamp } = await columnTypes(db);
  const ts = timestamp as "timestamptz";
  const bool = boolean as "boolean";

  await db.schema
    .alterTable("user")
    .addColumn("twoFactorEnabled", bool, (col) => col.defaultTo(false))
    .execute();

  await db.schema
    .createTable("twoFactor")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("secret", "text", (col) => col.notNull())
    .addColumn("backupCodes", "text", (col) => col.notNull())
    .addColumn("userId", "text", (col) => col.notNull().references("user.id").onDelete("cascade"))
    .addColumn("verified", bool, (col) => col.defaultTo(true))
    .addColumn("failedVerificationCount", "integer", (col) => col.defaultTo(0))
    .addColumn("lockedUntil", ts)
    .execute();
  await db.schema.createIndex("twoFactor_userId_idx").on("twoFactor").column("userId").execute();

  await db.schema
    .createTable("passkey")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("name", "text")
    .addColumn("publicKey", "text", (col) => col.notNull())
    .addColumn("userId", "text", (col) => col.notNull().references("user.id").onDelete("cascade"))
    .addColumn("credentialID", "text", (col) => col.notNull().unique())
    .addColumn("counter", "integer", (col) => col.notNull())
    .addColumn("deviceType", "text", (col) => col.notNull())
    .addColumn("backedUp", bool, (col) => col.notNull())
    .addColumn("transports", "text")
    .addColumn("createdAt", ts)
    .addColumn("aaguid", "text")
    .execute();
  await db.schema.createIndex("passkey_userId_idx").on("passkey").column("userId").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("passkey").execute();
  await db.schema.dropTable("twoFactor").execute();
  await db.schema.alterTable("user").dropColumn("twoFactorEnabled").execute();
}

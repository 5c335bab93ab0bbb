import type { Kysely } from "kysely";
import { columnTypes } from "./column-types";

/**
 * better-auth's tables for core + username + organization (teams) + admin, and its database
 * rate-limit table. Names and types follow better-auth 1.7; a test asserts that its
 * `getMigrations` finds nothing missing after this runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { boolean, timestamp } = await columnTypes(db);
  const ts = timestamp as "timestamptz";
  const bool = boolean as "boolean";

  await db.schema
    .createTable("user")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("email", "text", (col) => col.notNull().unique())
    .addColumn("emailVerified", bool, (col) => col.notNull())
    .addColumn("image", "text")
    .addColumn("createdAt", ts, (col) => col.notNull())
    .addColumn("updatedAt", ts, (col) => col.notNull())
    .addColumn("username", "text", (col) => col.unique())
    .addColumn("displayUsername", "text")
    .addColumn("role", "text")
    .addColumn("banned", bool)
    .addColumn("banReason", "text")
    .addColumn("banExpires", ts)
    .execute();

  await db.schema
    .createTable("session")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("expiresAt", ts, (col) => col.notNull())
    .addColumn("token", "text", (col) => col.notNull().unique())
    .addColumn("createdAt", ts, (col) => col.notNull())
    .addColumn("updatedAt", ts, (col) => col.notNull())
    .addColumn("ipAddress", "text")
    .addColumn("userAgent", "text")
    .addColumn("userId", "text", (col) => col.notNull().references("user.id").onDelete("cascade"))
    .addColumn("activeOrganizationId", "text")
    .addColumn("activeTeamId", "text")
    .addColumn("impersonatedBy", "text")
    .execute();

  await db.schema
    .createTable("account")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("accountId", "text", (col) => col.notNull())
    .addColumn("providerId", "text", (col) => col.notNull())
    .addColumn("userId", "text", (col) => col.notNull().references("user.id").onDelete("cascade"))
    .addColumn("accessToken", "text")
    .addColumn("refreshToken", "text")
    .addColumn("idToken", "text")
    .addColumn("accessTokenExpiresAt", ts)
    .addColumn("refreshTokenExpiresAt", ts)
    .addColumn("scope", "text")
    .addColumn("password", "text")
    .addColumn("createdAt", ts, (col) => col.notNull())
    .addColumn("updatedAt", ts, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("verification")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("identifier", "text", (col) => col.notNull())
    .addColumn("value", "text", (col) => col.notNull())
    .addColumn("expiresAt", ts, (col) => col.notNull())
    .addColumn("createdAt", ts, (col) => col.notNull())
    .addColumn("updatedAt", ts, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("organization")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("slug", "text", (col) => col.notNull().unique())
    .addColumn("logo", "text")
    .addColumn("createdAt", ts, (col) => col.notNull())
    .addColumn("metadata", "text")
    .execute();

  await db.schema
    .createTable("team")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("memberCount", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("organizationId", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("createdAt", ts, (col) => col.notNull())
    .addColumn("updatedAt", ts)
    .execute();

  await db.schema
    .createTable("teamMember")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("teamId", "text", (col) => col.notNull().references("team.id").onDelete("cascade"))
    .addColumn("userId", "text", (col) => col.notNull().references("user.id").onDelete("cascade"))
    .addColumn("membershipKey", "text", (col) => col.unique())
    .addColumn("createdAt", ts)
    .execute();

  await db.schema
    .createTable("member")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("organizationId", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("userId", "text", (col) => col.notNull().references("user.id").onDelete("cascade"))
    .addColumn("role", "text", (col) => col.notNull())
    .addColumn("createdAt", ts, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("invitation")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("organizationId", "text", (col) => col.notNull().references("organization.id").onDelete("cascade"))
    .addColumn("email", "text", (col) => col.notNull())
    .addColumn("role", "text")
    .addColumn("teamId", "text")
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("expiresAt", ts, (col) => col.notNull())
    .addColumn("createdAt", ts, (col) => col.notNull())
    .addColumn("inviterId", "text", (col) => col.notNull().references("user.id").onDelete("cascade"))
    .execute();

  await db.schema
    .createTable("rateLimit")
    .addColumn("id", "text", (col) => col.primaryKey().notNull())
    .addColumn("key", "text", (col) => col.notNull().unique())
    .addColumn("count", "integer", (col) => col.notNull())
    .addColumn("lastRequest", "bigint", (col) => col.notNull())
    .execute();

  const indexes: Array<[string, string, string]> = [
    ["session_userId_idx", "session", "userId"],
    ["account_userId_idx", "account", "userId"],
    ["verification_identifier_idx", "verification", "identifier"],
    ["team_organizationId_idx", "team", "organizationId"],
    ["teamMember_teamId_idx", "teamMember", "teamId"],
    ["teamMember_userId_idx", "teamMember", "userId"],
    ["member_organizationId_idx", "member", "organizationId"],
    ["member_userId_idx", "member", "userId"],
    ["invitation_organizationId_idx", "invitation", "organizationId"],
    ["invitation_email_idx", "invitation", "email"],
    ["rateLimit_lastRequest_idx", "rateLimit", "lastRequest"],
  ];
  for (const [name, table, column] of indexes) {
    await db.schema.createIndex(name).on(table).column(column).execute();
  }
  // One membership per user and organization: better-auth does not enforce it, the database does.
  await db.schema
    .createIndex("member_organizationId_userId_key")
    .on("member")
    .columns(["organizationId", "userId"])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "rateLimit",
    "invitation",
    "member",
    "teamMember",
    "team",
    "organization",
    "verification",
    "account",
    "session",
    "user",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

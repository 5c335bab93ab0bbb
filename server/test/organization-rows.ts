import { sql } from "kysely";
import type { TestApp } from "./test-database";

/**
 * Rows the organization tests read and the fault they install (server/modules/organizations/*.int.test.ts): the
 * organization, a membership, a user's sessions, and a membership insert the database refuses.
 */
export async function organizationRow(server: TestApp, id: string) {
  return server.db.selectFrom("organization").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function memberRow(server: TestApp, organizationId: string, userId: string) {
  return server.db
    .selectFrom("member")
    .selectAll()
    .where("organizationId", "=", organizationId)
    .where("userId", "=", userId)
    .executeTakeFirst();
}

export async function sessionsOf(server: TestApp, userId: string) {
  return server.db
    .selectFrom("session")
    .select(["token", "activeOrganizationId"])
    .where("userId", "=", userId)
    .execute();
}

/** Makes inserting a membership for this user fail inside the database, as a constraint or outage would. */
export async function installFailingMemberInsert(server: TestApp, userId: string) {
  if (server.dialect === "postgres") {
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION fail_member_insert() RETURNS trigger AS $$
         BEGIN RAISE EXCEPTION 'member insert refused for the test'; END; $$ LANGUAGE plpgsql`,
      )
      .execute(server.db);
    await sql
      .raw(
        `CREATE TRIGGER fail_member_insert BEFORE INSERT ON "member" FOR EACH ROW WHEN (NEW."userId" = '${userId}') ` +
          "EXECUTE FUNCTION fail_member_insert()",
      )
      .execute(server.db);
  } else {
    await sql
      .raw(
        `CREATE TRIGGER fail_member_insert BEFORE INSERT ON "member" WHEN NEW."userId" = '${userId}' ` +
          "BEGIN SELECT RAISE(ABORT, 'member insert refused for the test'); END",
      )
      .execute(server.db);
  }
}

export async function removeFailingMemberInsert(server: TestApp) {
  const drop =
    server.dialect === "postgres"
      ? `DROP TRIGGER IF EXISTS fail_member_insert ON "member"`
      : `DROP TRIGGER IF EXISTS fail_member_insert`;
  await sql.raw(drop).execute(server.db);
}

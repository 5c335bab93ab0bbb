import { sql, type Kysely } from "kysely";

/**
 * The owners of an organization, from an index of owners only: the members list counts them on every request (the
 * last one can neither leave nor be demoted), which read all 10,000 memberships of a large organization (1.3 ms on
 * PostgreSQL) to find one or two. The index's condition is the query's own literal `like '%owner%'`
 * (organizations.repository.ts): both databases use a partial index only for a query whose condition implies it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("member_owner_idx")
    .on("member")
    .column("organizationId")
    .where(sql.ref("role"), "like", sql.lit("%owner%"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("member_owner_idx").execute();
}

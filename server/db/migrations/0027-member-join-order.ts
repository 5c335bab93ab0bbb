import type { Kysely } from "kysely";

/**
 * An organization's members in the order its members list shows them (join date, then id): a page of a large
 * organization is read from the index, its first rows first, instead of sorting every membership on each request.
 * Measured by `npm run bench:scale` (docs/performance.md): an organization of 10,000 members.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("member_organizationId_createdAt_id_idx")
    .on("member")
    .columns(["organizationId", "createdAt", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("member_organizationId_createdAt_id_idx").execute();
}

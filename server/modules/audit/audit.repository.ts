import { randomUUID } from "node:crypto";
import type { Insertable, Kysely, Selectable, SelectQueryBuilder } from "kysely";
import type { AuditEventTable, Database } from "../../db/schema";
import type { AuditLogQuery } from "./audit.schemas";

export type AuditEventRow = Selectable<AuditEventTable>;

/** Inserts one entry. Passed the transaction of the change it records, so both commit or neither does. */
export async function insertAuditEvent(
  db: Kysely<Database>,
  row: Omit<Insertable<AuditEventTable>, "id" | "created_at">,
  now = new Date(),
): Promise<void> {
  await db
    .insertInto("audit_event")
    .values({ id: randomUUID(), created_at: now.toISOString(), ...row })
    .execute();
}

export async function findUserLabel(db: Kysely<Database>, userId: string): Promise<string | undefined> {
  return (await db.selectFrom("user").select("email").where("id", "=", userId).executeTakeFirst())?.email;
}

export async function findOrganizationName(db: Kysely<Database>, organizationId: string): Promise<string | undefined> {
  return (await db.selectFrom("organization").select("name").where("id", "=", organizationId).executeTakeFirst())?.name;
}

/**
 * The name of the organization that sent an invitation and has since been deleted (its invitations went with it;
 * its audit entries stay), or undefined when there was no such invitation or its organization still exists.
 */
export async function findDeletedOrganizationOfInvitation(
  db: Kysely<Database>,
  invitationId: string,
): Promise<string | undefined> {
  const sent = await db
    .selectFrom("audit_event")
    .select(["organization_id", "organization_name"])
    .where("target_type", "=", "invitation")
    .where("target_id", "=", invitationId)
    .where("action", "=", "invitation.sent")
    .executeTakeFirst();
  if (!sent?.organization_id || (await findOrganizationName(db, sent.organization_id)) !== undefined) return undefined;
  return sent.organization_name ?? "";
}

type Filters = Omit<AuditLogQuery, "limit" | "offset">;

function filtered(db: Kysely<Database>, filters: Filters): SelectQueryBuilder<Database, "audit_event", object> {
  let query = db.selectFrom("audit_event");
  if (filters.organizationId) query = query.where("organization_id", "=", filters.organizationId);
  if (filters.action) query = query.where("action", "=", filters.action);
  if (filters.actorId)
    query = query.where((eb) =>
      eb.or([eb("actor_id", "=", filters.actorId as string), eb("impersonator_id", "=", filters.actorId as string)]),
    );
  if (filters.targetId) query = query.where("target_id", "=", filters.targetId);
  // Days are UTC calendar days, both ends included; times are bound as ISO text (SQLite stores them so).
  if (filters.from) query = query.where("created_at", ">=", `${filters.from}T00:00:00.000Z`);
  if (filters.to)
    query = query.where(
      "created_at",
      "<",
      new Date(Date.parse(`${filters.to}T00:00:00.000Z`) + 86_400_000).toISOString(),
    );
  return query;
}

/** One page of entries, newest first, with the total the filters match. */
export async function findAuditEvents(
  db: Kysely<Database>,
  query: AuditLogQuery,
): Promise<{ rows: AuditEventRow[]; total: number }> {
  const base = filtered(db, query);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as("total")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** The entries the filters match, newest first, a batch at a time: for the CSV export, which may be larger than a page. */
export async function findAuditEventBatch(
  db: Kysely<Database>,
  filters: Filters,
  after: { createdAt: string; id: string } | null,
  limit: number,
): Promise<AuditEventRow[]> {
  let query = filtered(db, filters);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", after.createdAt),
        eb.and([eb("created_at", "=", after.createdAt), eb("id", "<", after.id)]),
      ]),
    );
  }
  return query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

/** Deletes entries older than `before`: the retention setting, the only way entries ever leave the log. */
export async function deleteAuditEventsBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom("audit_event").where("created_at", "<", before.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

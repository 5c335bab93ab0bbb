import type { Kysely } from "kysely";
import { toIsoString } from "../../db/database";
import type { Database } from "../../db/schema";
import { csvField } from "./audit.csv";
import * as repository from "./audit.repository";
import {
  AUDIT_EXPORT_MAX_ROWS,
  type AuditAction,
  type AuditContext,
  type AuditEntry,
  type AuditEventInput,
  type AuditLogPage,
  type AuditLogQuery,
  type AuditTargetType,
} from "./audit.schemas";

/** Records one change in the audit log. Call it with the transaction of the change, so a failed change leaves no entry. */
export async function recordAuditEvent(
  db: Kysely<Database>,
  context: AuditContext,
  input: AuditEventInput,
): Promise<void> {
  const organizationName =
    input.organization &&
    (input.organization.name ?? (await repository.findOrganizationName(db, input.organization.id)) ?? null);
  const impersonatorLabel = context.impersonatorId
    ? ((await repository.findUserLabel(db, context.impersonatorId)) ?? context.impersonatorId)
    : null;
  await repository.insertAuditEvent(db, {
    action: input.action,
    actor_type: context.actor.type,
    actor_id: context.actor.id,
    actor_label: context.actor.label,
    impersonator_id: context.impersonatorId,
    impersonator_label: impersonatorLabel,
    target_type: input.target?.type ?? null,
    target_id: input.target?.id ?? null,
    target_label: input.target?.label ?? null,
    organization_id: input.organization?.id ?? null,
    organization_name: organizationName ?? null,
    ip_address: context.ipAddress,
    user_agent: context.userAgent,
    reason: input.reason?.trim() || null,
    details: input.details && Object.keys(input.details).length > 0 ? JSON.stringify(input.details) : null,
  });
}

function toEntry(row: repository.AuditEventRow): AuditEntry {
  return {
    id: row.id,
    createdAt: toIsoString(row.created_at) ?? "",
    action: row.action as AuditAction,
    actor: { type: row.actor_type, id: row.actor_id, label: row.actor_label },
    impersonator: row.impersonator_id
      ? { id: row.impersonator_id, label: row.impersonator_label ?? row.impersonator_id }
      : null,
    target:
      row.target_type && row.target_id
        ? { type: row.target_type as AuditTargetType, id: row.target_id, label: row.target_label }
        : null,
    organization: row.organization_id ? { id: row.organization_id, name: row.organization_name } : null,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    reason: row.reason,
    details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
  };
}

/** One page of the log, newest first. The caller has checked who may see which entries (and set `organizationId`). */
export async function listAuditLog(db: Kysely<Database>, query: AuditLogQuery): Promise<AuditLogPage> {
  const { rows, total } = await repository.findAuditEvents(db, query);
  return { entries: rows.map(toEntry), total, limit: query.limit, offset: query.offset };
}

const CSV_COLUMNS = [
  "time",
  "action",
  "actor_id",
  "actor",
  "impersonator_id",
  "impersonator",
  "target_type",
  "target_id",
  "target",
  "organization_id",
  "organization",
  "ip_address",
  "user_agent",
  "reason",
  "details",
  // Last, so the columns exports had before it keep their places.
  "actor_type",
] as const;
const EXPORT_BATCH = 1000;

function csvLine(entry: AuditEntry): string {
  const values = [
    entry.createdAt,
    entry.action,
    entry.actor.id,
    entry.actor.label,
    entry.impersonator?.id ?? null,
    entry.impersonator?.label ?? null,
    entry.target?.type ?? null,
    entry.target?.id ?? null,
    entry.target?.label ?? null,
    entry.organization?.id ?? null,
    entry.organization?.name ?? null,
    entry.ipAddress,
    entry.userAgent,
    entry.reason,
    entry.details ? JSON.stringify(entry.details) : null,
    entry.actor.type,
  ];
  return `${values.map(csvField).join(",")}\r\n`;
}

/**
 * The entries the filters match as CSV (RFC 4180, a header line first), read and sent a batch at a time; at most
 * AUDIT_EXPORT_MAX_ROWS. The first batch is read before the answer starts, so a failing database answers with an
 * error status rather than a cut-off file.
 */
export async function exportAuditLog(
  db: Kysely<Database>,
  filters: Omit<AuditLogQuery, "limit" | "offset">,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let sent = 0;
  let after: { createdAt: string; id: string } | null = null;
  const nextBatch = async () => {
    const rows =
      sent < AUDIT_EXPORT_MAX_ROWS
        ? await repository.findAuditEventBatch(db, filters, after, Math.min(EXPORT_BATCH, AUDIT_EXPORT_MAX_ROWS - sent))
        : [];
    const last = rows[rows.length - 1];
    if (last) after = { createdAt: toIsoString(last.created_at) ?? "", id: last.id };
    sent += rows.length;
    return rows;
  };
  let pending: repository.AuditEventRow[] | null = await nextBatch();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${CSV_COLUMNS.join(",")}\r\n`));
    },
    async pull(controller) {
      const rows = pending ?? (await nextBatch());
      pending = null;
      if (rows.length === 0) return controller.close();
      controller.enqueue(encoder.encode(rows.map((row) => csvLine(toEntry(row))).join("")));
    },
  });
}

/** Deletes the entries older than the retention period; returns how many went. */
export async function purgeAuditLog(db: Kysely<Database>, retentionDays: number, now = new Date()): Promise<number> {
  return repository.deleteAuditEventsBefore(db, new Date(now.getTime() - retentionDays * 86_400_000));
}

export {
  AUDIT_ACTIONS,
  AUDIT_EXPORT_MAX_ROWS,
  auditLogQuerySchema,
  type AuditAction,
  type AuditEntry,
  type AuditLogPage,
  type AuditLogQuery,
  type AuditTargetType,
} from "../../../common/audit.schemas";
import type { AuditAction, AuditActor, AuditTargetType } from "../../../common/audit.schemas";

/**
 * Who made a change and from where: the signed-in user (or an API key, a directory, the command line), the admin
 * impersonating them, the request's address and agent.
 */
export type AuditContext = {
  actor: AuditActor;
  impersonatorId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
};

/** One change to record. The organization's and the impersonator's names are looked up when not given. */
export type AuditEventInput = {
  action: AuditAction;
  target?: { type: AuditTargetType; id: string; label?: string | null } | null;
  organization?: { id: string; name?: string | null } | null;
  reason?: string | null;
  details?: Record<string, unknown> | null;
};

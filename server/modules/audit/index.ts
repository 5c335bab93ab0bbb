export { adminAuditRoutes, auditCsvResponse, withoutPaging, type AdminAuditRoutes } from "./audit.routes";
export {
  auditContextOf,
  auditedEndpoint,
  requestAuditContext,
  type AuditedCall,
  type AuditedSession,
  type AuditRecord,
} from "./audit.plugin";
export { findDeletedOrganizationOfInvitation } from "./audit.repository";
export { matches, matchesPluginEndpoints } from "./endpoint-matcher";
export { auditLogQuerySchema, type AuditContext, type AuditEventInput, type AuditLogPage } from "./audit.schemas";
export { exportAuditLog, listAuditLog, purgeAuditLog, recordAuditEvent } from "./audit.service";

export {
  invitationRoutes,
  organizationAuditRoutes,
  organizationRoutes,
  type InvitationRoutes,
  type OrganizationAuditRoutes,
  type OrganizationRoutes,
} from "./organizations.routes";
export { organizationHooks, organizationRules, organizations, type OrganizationsOptions } from "./organizations.plugin";
export { organizationWrites, type OrganizationWriteEndpoint, type OrganizationWrites } from "./organizations.writes";
export { ORGANIZATION_REQUEST_BODY_SCHEMAS, ORGANIZATION_REQUEST_QUERY_SCHEMAS } from "./organizations.request-schemas";
export {
  requireOrganizationPermission,
  requireOrganizationScope,
  type OrganizationScope,
  type ScopedEnv,
} from "./organizations.scope";
export type { InvitationState, MemberList, MemberListItem, TeamWithMembers } from "./organizations.schemas";
export { findMembership, hasTeamNamed, lockOrganization } from "./organizations.repository";
export { findAdmittedMembership } from "./organizations.security";
export { organizationUniqueConflicts } from "./organizations.conflicts";
export {
  countSeats,
  countTeams,
  deleteMembership,
  deleteTeam,
  deleteTeamMember,
  insertMember,
  insertTeam,
  insertTeamMember,
  organizationExists,
  renameTeam,
  updateMemberRole,
} from "./organizations.repository";
export { accountDeletion, previewAccountDeletion, type AccountDeletionOptions } from "./account-deletion";
export { accountDeletionRoutes, type AccountDeletionRoutes } from "./account-deletion.routes";

export { invitationRoutes, organizationRoutes } from "./organizations.routes";
export { createOrganizationHooks, normalizeMetadata, onMemberLeft } from "./organizations.service";
export { atomicOrganizationCreate } from "./organizations.plugin";
export type { InvitationState, MemberList, MemberListItem, TeamWithMembers } from "./organizations.schemas";

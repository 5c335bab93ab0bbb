export { invitationRoutes, organizationRoutes } from "./organizations.routes";
export { assertMayRemoveMember, assertMemberOfRequestedOrganization, createOrganizationHooks, normalizeMetadata, onMemberLeft } from "./organizations.service";
export { atomicOrganizationCreate, serializedTeamMemberAdd, type AuthApiCall } from "./organizations.plugin";
export type { InvitationState, MemberList, MemberListItem, TeamWithMembers } from "./organizations.schemas";

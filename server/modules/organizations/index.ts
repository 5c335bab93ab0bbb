export { organizationRoutes } from "./organizations.routes";
export { createOrganizationHooks, normalizeMetadata, onMemberLeft } from "./organizations.service";
export type { MemberList, MemberListItem } from "./organizations.schemas";

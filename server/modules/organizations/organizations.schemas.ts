export {
  invitationParamsSchema,
  listMembersQuerySchema,
  memberParamsSchema,
  METADATA_MAX_BYTES,
  METADATA_MAX_DEPTH,
  organizationInvitationParamsSchema,
  organizationParamsSchema,
  slugAvailabilityQuerySchema,
  teamMemberParamsSchema,
  teamParamsSchema,
  type InvitationPreview,
  type InvitationState,
  type ListMembersQuery,
  type MemberList,
  type MemberListItem,
  type OrganizationInvitation,
  type OrganizationMember,
  type OrganizationTeam,
  type SlugAvailability,
  type TeamMembership,
  type TeamWithMembers,
} from "../../../common/organization.schemas";

/**
 * Proof that the caller is a member of one organization (the repository's `findMembership` makes it).
 * Repository functions that read organization-owned data take it, so nothing queries tenant data without
 * a membership check made on this very request.
 */
export type OrganizationScope = {
  organizationId: string;
  /** The member's user; empty for an API key, which is no person (it reaches no route that reads the user). */
  userId: string;
  memberId: string;
  roles: string[];
  /** The organization API key acting, instead of a member (its access is decided by organizations.api-key-access). */
  apiKey?: { id: string; name: string; prefix: string };
};

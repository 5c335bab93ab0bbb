import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateOrganizationInput } from "../../../../common/organization.schemas";
import type { MemberListItem, TeamWithMembers as Team } from "../../../../common/organization.schemas";
import type { OrganizationRole } from "../../../../common/permissions";
import { api, apiCall } from "../../../lib/api-client";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useRequireFresh } from "../../../lib/fresh-authentication";
import { sessionQuery, useRefreshSession } from "../../../lib/session";

export type { MemberListItem, Team };

// The types are what better-auth's client answers, as its own types say: no hand-written copies to drift.
const fetchOrganizations = async () => unwrap(await authClient.organization.list()) ?? [];
const fetchInvitations = async (organizationId: string) =>
  unwrap(await authClient.organization.listInvitations({ query: { organizationId } })) ?? [];
export type Organization = Awaited<ReturnType<typeof fetchOrganizations>>[number];
export type Invitation = Awaited<ReturnType<typeof fetchInvitations>>[number];

export const organizationKeys = {
  all: ["organizations"] as const,
  list: () => [...organizationKeys.all, "list"] as const,
  detail: (id: string) => [...organizationKeys.all, id] as const,
  members: (id: string, search: string, offset: number, limit: number) =>
    [...organizationKeys.all, id, "members", search, offset, limit] as const,
  invitations: (id: string) => [...organizationKeys.all, id, "invitations"] as const,
  teams: (id: string) => [...organizationKeys.all, id, "teams"] as const,
  activeMember: (id: string) => [...organizationKeys.all, id, "active-member"] as const,
  userInvitations: () => ["user-invitations"] as const,
};

export const organizationsQuery = queryOptions({
  queryKey: organizationKeys.list(),
  queryFn: fetchOrganizations,
});

export function useOrganizations() {
  return useQuery(organizationsQuery);
}

export function organizationQuery(organizationId: string) {
  return queryOptions({
    queryKey: organizationKeys.detail(organizationId),
    queryFn: async () =>
      unwrap(await authClient.organization.getFullOrganization({ query: { organizationId, membersLimit: 1 } })),
  });
}

/** The caller's own membership (and so their role) in one organization. */
export function useMyMembership(organizationId: string) {
  return useQuery({
    queryKey: organizationKeys.activeMember(organizationId),
    queryFn: async () => unwrap(await authClient.organization.getActiveMemberRole({ query: { organizationId } })),
  });
}

export function useMembers(organizationId: string, search: string, offset: number, limit = 20, enabled = true) {
  return useQuery({
    enabled,
    queryKey: organizationKeys.members(organizationId, search, offset, limit),
    queryFn: () =>
      apiCall(
        api.organizations[":organizationId"].members.$get({
          param: { organizationId },
          query: { search, offset: String(offset), limit: String(limit) },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

export function useInvitations(organizationId: string, enabled: boolean) {
  return useQuery({
    queryKey: organizationKeys.invitations(organizationId),
    queryFn: () => fetchInvitations(organizationId),
    enabled,
  });
}

/** Teams with their members (our endpoint: better-auth lists a team's members only to people in it). */
export function useTeams(organizationId: string) {
  return useQuery({
    queryKey: organizationKeys.teams(organizationId),
    queryFn: () => apiCall(api.organizations[":organizationId"].teams.$get({ param: { organizationId } })),
  });
}

export function useUserInvitations() {
  return useQuery({
    queryKey: organizationKeys.userInvitations(),
    queryFn: async () => unwrap(await authClient.organization.listUserInvitations()) ?? [],
  });
}

/** Refreshes everything an organization change can affect: lists, the session's active organization, detail views. */
export function useInvalidateOrganizations() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
      queryClient.invalidateQueries({ queryKey: organizationKeys.userInvitations() }),
      queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey }),
    ]);
  };
}

function useSetActive(meta?: {
  successMessage: (data: unknown, variables: { organizationId: string; name?: string }) => string;
}) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ organizationId }: { organizationId: string | null; name?: string }) =>
      unwrap(await authClient.organization.setActive({ organizationId })),
    onSuccess: invalidate,
    meta,
  });
}

/**
 * After the active organization went away (deleted, or left), another of the person's organizations becomes the
 * active one, so the header does not say "None selected" while there are others.
 */
function useActivateAnother() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateOrganizations();
  return async () => {
    await invalidate();
    const session = await queryClient.fetchQuery(sessionQuery);
    if (!session || session.session.activeOrganizationId) return;
    const [next] = await queryClient.fetchQuery(organizationsQuery);
    if (!next) return;
    unwrap(await authClient.organization.setActive({ organizationId: next.id }));
    await invalidate();
  };
}

/** Makes an organization the active one, quietly (errors still raise a toast). */
export function useSetActiveOrganization() {
  return useSetActive();
}

/** The header's switcher: like useSetActiveOrganization, and says where the person switched to. */
export function useSwitchOrganization() {
  return useSetActive({
    successMessage: (_data: unknown, { name }: { name?: string }) => `Switched to ${name ?? "organization"}`,
  });
}

/** Whether a slug is free (the organization's own slug is the caller's to skip). */
export async function isSlugAvailable(slug: string): Promise<boolean> {
  return (await apiCall(api.organizations["slug-availability"].$get({ query: { slug } }))).available;
}

/** What an invitation link shows anyone holding it: state, organization, inviter (our endpoint, no session needed). */
export function invitationPreviewQuery(invitationId: string) {
  return queryOptions({
    queryKey: ["invitation", invitationId, "preview"],
    queryFn: () => apiCall(api.invitations[":invitationId"].$get({ param: { invitationId } })),
    retry: false,
  });
}

export function useInvitationPreview(invitationId: string) {
  return useQuery(invitationPreviewQuery(invitationId));
}

/** Signs out and stays on the page: an invitation for another address is then offered to sign in with that one. */
export function useSignOutHere() {
  const refreshSession = useRefreshSession();
  return useMutation({
    mutationFn: async () => unwrap(await authClient.signOut()),
    onSuccess: () => refreshSession({ clearEverything: true }),
  });
}

export type InvitationDetails = {
  id: string;
  email: string;
  role: string;
  status: string;
  expiresAt: string | Date;
  organizationId: string;
  organizationName: string;
  organizationSlug: string;
  /** Null when the organization itself invited (an API key sent it). */
  inviterEmail: string | null;
};

/** What the invited person may see of an invitation (better-auth answers only to its recipient). */
export function useInvitationDetails(invitationId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["invitation", invitationId],
    queryFn: async (): Promise<InvitationDetails> =>
      unwrap(await authClient.organization.getInvitation({ query: { id: invitationId } })),
    enabled,
    retry: false,
  });
}

type InvitationResponse = { invitationId: string; organizationId: string; organizationName?: string };

/** Accepts an invitation and makes its organization the active one; `welcome` words the success toast. */
export function useAcceptInvitation({
  welcome,
  errorToast,
}: {
  welcome: (organizationName: string | undefined) => string;
  errorToast?: false;
}) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ invitationId, organizationId }: InvitationResponse) => {
      unwrap(await authClient.organization.acceptInvitation({ invitationId }));
      return unwrap(await authClient.organization.setActive({ organizationId }));
    },
    onSuccess: invalidate,
    meta: {
      successMessage: (_data: unknown, { organizationName }: InvitationResponse) => welcome(organizationName),
      errorToast,
    },
  });
}

export function useRejectInvitation(meta?: { errorToast?: false }) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ invitationId }: Pick<InvitationResponse, "invitationId">) =>
      unwrap(await authClient.organization.rejectInvitation({ invitationId })),
    onSuccess: invalidate,
    meta: { successMessage: "Invitation declined", ...meta },
  });
}

/** Creates an organization (the caller becomes its owner); its errors are shown by the form. */
export function useCreateOrganization() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ name, slug, logo }: CreateOrganizationInput) =>
      unwrap(await authClient.organization.create({ name, slug, ...(logo ? { logo } : {}) })),
    onSuccess: invalidate,
    meta: { successMessage: (organization: Organization) => `${organization.name} is ready`, errorToast: false },
  });
}

export type OrganizationUpdate = { name: string; slug: string; logo?: string; metadata: string };

export function useUpdateOrganization(organizationId: string) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ name, slug, logo, metadata }: OrganizationUpdate) =>
      unwrap(
        await authClient.organization.update({
          organizationId,
          data: { name, slug, logo: logo || undefined, metadata: metadata.trim() ? parseMetadata(metadata) : {} },
        }),
      ),
    onSuccess: invalidate,
    meta: { successMessage: "Organization saved", errorToast: false },
  });
}

/** The metadata field holds a JSON object (the form's schema has checked that it parses to one). */
function parseMetadata(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value } : {};
}

/** Where the general settings form's server errors go. */
export const updateOrganizationServerErrors = {
  INVALID_METADATA: "metadata",
  ORGANIZATION_SLUG_ALREADY_TAKEN: "slug",
} as const;

export function useLeaveOrganization(organization: Pick<Organization, "id" | "name">) {
  const activateAnother = useActivateAnother();
  return useMutation({
    mutationFn: async () => unwrap(await authClient.organization.leave({ organizationId: organization.id })),
    onSuccess: activateAnother,
    meta: { successMessage: `You left ${organization.name}` },
  });
}

/** Deleting an organization needs a recent sign-in: the re-check dialog asks for one when the server says so. */
export function useDeleteOrganization(organization: Pick<Organization, "id" | "name">) {
  const activateAnother = useActivateAnother();
  const requireFresh = useRequireFresh();
  return useMutation({
    mutationFn: () =>
      requireFresh(async () => unwrap(await authClient.organization.delete({ organizationId: organization.id }))),
    onSuccess: activateAnother,
    meta: { successMessage: `${organization.name} was deleted`, errorToast: false },
  });
}

/** A role as a sentence names it: "an owner", "an admin", "a member". */
const withArticle = (role: string) => `${/^[aeiou]/i.test(role) ? "an" : "a"} ${role}`;

export function useUpdateMemberRole(organizationId: string) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ member, role }: { member: MemberListItem; role: string }) =>
      unwrap(await authClient.organization.updateMemberRole({ memberId: member.id, role, organizationId })),
    onSuccess: invalidate,
    meta: {
      successMessage: (_data: unknown, { member, role }: { member: MemberListItem; role: string }) =>
        `${member.user.name} is now ${withArticle(role)}`,
    },
  });
}

export function useRemoveMember(organizationId: string) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async (member: MemberListItem) =>
      unwrap(await authClient.organization.removeMember({ memberIdOrEmail: member.id, organizationId })),
    onSuccess: invalidate,
    meta: { successMessage: (_data: unknown, member: MemberListItem) => `${member.user.name} was removed` },
  });
}

type InviteInput = { email: string; role: OrganizationRole; teamId?: string };

/** Sends an invitation; its errors are shown by the form. */
export function useInviteMember(organizationId: string) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ email, role, teamId }: InviteInput) =>
      unwrap(
        await authClient.organization.inviteMember({ email, role, organizationId, ...(teamId ? { teamId } : {}) }),
      ),
    onSuccess: invalidate,
    meta: {
      successMessage: (_data: unknown, { email }: InviteInput) => `Invitation sent to ${email}`,
      errorToast: false,
    },
  });
}

export function useResendInvitation(organizationId: string) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ email, role }: { email: string; role: OrganizationRole }) =>
      unwrap(await authClient.organization.inviteMember({ email, role, organizationId, resend: true })),
    onSuccess: invalidate,
    meta: { successMessage: (_data: unknown, { email }: { email: string }) => `Invitation sent again to ${email}` },
  });
}

export function useCancelInvitation() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async (invitation: Invitation) =>
      unwrap(await authClient.organization.cancelInvitation({ invitationId: invitation.id })),
    onSuccess: invalidate,
    meta: { successMessage: (_data: unknown, invitation: Invitation) => `Invitation to ${invitation.email} canceled` },
  });
}

/** Creates a team; its errors are shown by the form. */
export function useCreateTeam(organizationId: string) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ name }: { name: string }) =>
      unwrap(await authClient.organization.createTeam({ name, organizationId })),
    onSuccess: invalidate,
    meta: { successMessage: (_data: unknown, { name }: { name: string }) => `Team ${name} created`, errorToast: false },
  });
}

/** Renames a team; its errors are shown by the form. */
export function useRenameTeam(organizationId: string, teamId: string) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ name }: { name: string }) =>
      unwrap(await authClient.organization.updateTeam({ teamId, data: { name, organizationId } })),
    onSuccess: invalidate,
    meta: { successMessage: "Team renamed", errorToast: false },
  });
}

export function useRemoveTeam(organizationId: string, teamId: string) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async () => unwrap(await authClient.organization.removeTeam({ teamId, organizationId })),
    onSuccess: invalidate,
    meta: { successMessage: "Team removed" },
  });
}

export function useAddTeamMember(organizationId: string, teamId: string) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ userId }: { userId: string }) =>
      unwrap(await authClient.organization.addTeamMember({ teamId, userId, organizationId })),
    onSuccess: invalidate,
    meta: { successMessage: "Added to the team" },
  });
}

export function useRemoveTeamMember(organizationId: string, teamId: string) {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async ({ userId }: { userId: string }) =>
      unwrap(await authClient.organization.removeTeamMember({ teamId, userId, organizationId })),
    onSuccess: invalidate,
    meta: { successMessage: "Removed from the team" },
  });
}

/** Turns a name into a slug suggestion: lower case, dashes, no leading or trailing dash. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
}

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { sessionQuery } from "../../auth/api/session";
import type { MemberList, MemberListItem, TeamWithMembers as Team } from "../../../../common/organization.schemas";

export type { MemberList, MemberListItem, Team };

export type Organization = { id: string; name: string; slug: string; logo?: string | null; createdAt: string | Date; metadata?: unknown };
export type Invitation = {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  status: "pending" | "accepted" | "rejected" | "canceled";
  teamId?: string | null;
  inviterId: string;
  expiresAt: string | Date;
  createdAt?: string | Date;
};

export const organizationKeys = {
  all: ["organizations"] as const,
  list: () => [...organizationKeys.all, "list"] as const,
  detail: (id: string) => [...organizationKeys.all, id] as const,
  members: (id: string, search: string, offset: number) => [...organizationKeys.all, id, "members", search, offset] as const,
  invitations: (id: string) => [...organizationKeys.all, id, "invitations"] as const,
  teams: (id: string) => [...organizationKeys.all, id, "teams"] as const,
  activeMember: (id: string) => [...organizationKeys.all, id, "active-member"] as const,
  userInvitations: () => ["user-invitations"] as const,
};

export const organizationsQuery = queryOptions({
  queryKey: organizationKeys.list(),
  queryFn: async () => (unwrap(await authClient.organization.list()) ?? []) as Organization[],
});

export function useOrganizations() {
  return useQuery(organizationsQuery);
}

export function organizationQuery(organizationId: string) {
  return queryOptions({
    queryKey: organizationKeys.detail(organizationId),
    queryFn: async () => unwrap(await authClient.organization.getFullOrganization({ query: { organizationId, membersLimit: 1 } })) as Organization,
  });
}

/** The caller's own membership (and so their role) in one organization. */
export function useMyMembership(organizationId: string) {
  return useQuery({
    queryKey: organizationKeys.activeMember(organizationId),
    queryFn: async () => unwrap(await authClient.organization.getActiveMemberRole({ query: { organizationId } })) as { role: string },
  });
}

export function useMembers(organizationId: string, search: string, offset: number, limit = 20) {
  return useQuery({
    queryKey: organizationKeys.members(organizationId, search, offset),
    queryFn: () =>
      apiFetch<MemberList>(`/api/organizations/${organizationId}/members?${new URLSearchParams({ search, offset: String(offset), limit: String(limit) })}`),
    placeholderData: (previous) => previous,
  });
}

export function useInvitations(organizationId: string, enabled: boolean) {
  return useQuery({
    queryKey: organizationKeys.invitations(organizationId),
    queryFn: async () => (unwrap(await authClient.organization.listInvitations({ query: { organizationId } })) ?? []) as Invitation[],
    enabled,
  });
}

/** Teams with their members (our endpoint: better-auth lists a team's members only to people in it). */
export function useTeams(organizationId: string) {
  return useQuery({
    queryKey: organizationKeys.teams(organizationId),
    queryFn: () => apiFetch<Team[]>(`/api/organizations/${organizationId}/teams`),
  });
}

export function useUserInvitations() {
  return useQuery({
    queryKey: organizationKeys.userInvitations(),
    queryFn: async () => (unwrap(await authClient.organization.listUserInvitations()) ?? []) as Invitation[],
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

export function useSetActiveOrganization() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: async (organizationId: string | null) => unwrap(await authClient.organization.setActive({ organizationId })),
    onSuccess: invalidate,
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

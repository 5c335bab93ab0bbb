import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminOrganizationListQuery, AssignOwnerInput } from "../../../../common/admin.schemas";
import { api, apiCall } from "../../../lib/api-client";

/** The console's organizations: under ["admin"], so every admin change (which invalidates ["admin"]) refreshes them. */
export const adminOrganizationKeys = {
  all: ["admin", "organizations"] as const,
  list: (query: AdminOrganizationListQuery) => [...adminOrganizationKeys.all, "list", query] as const,
  detail: (organizationId: string) => [...adminOrganizationKeys.all, "detail", organizationId] as const,
};

/** One page of organizations; the previous page stays on screen while the next one loads. */
export function adminOrganizationsQuery({ q, limit, offset }: AdminOrganizationListQuery) {
  return queryOptions({
    queryKey: adminOrganizationKeys.list({ q: q || undefined, limit, offset }),
    queryFn: () =>
      apiCall(
        api.admin.organizations.$get({ query: { q: q || undefined, limit: String(limit), offset: String(offset) } }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useAdminOrganizations(query: AdminOrganizationListQuery) {
  return useQuery(adminOrganizationsQuery(query));
}

/** An organization's page: its members, teams and pending invitations. */
export function adminOrganizationQuery(organizationId: string) {
  return queryOptions({
    queryKey: adminOrganizationKeys.detail(organizationId),
    queryFn: () => apiCall(api.admin.organizations[":organizationId"].$get({ param: { organizationId } })),
  });
}

export function useAdminOrganization(organizationId: string) {
  return useQuery(adminOrganizationQuery(organizationId));
}

/**
 * Gives the organization a new owner (an existing user, by e-mail), with the reason for the audit log. Everything the
 * console shows is read again afterwards; the dialog shows errors itself.
 */
export function useAssignOwner(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AssignOwnerInput) =>
      apiCall(api.admin.organizations[":organizationId"].owner.$post({ param: { organizationId }, json: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["admin"] }),
    meta: {
      successMessage: (owner: { email: string }) => `${owner.email} is now an owner of this organization`,
      errorToast: false,
    },
  });
}

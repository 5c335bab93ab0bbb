import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { OrganizationSecurity } from "../../../../common/organization.schemas";
import { api, apiCall } from "../../../lib/api-client";
import { organizationKeys } from "./organizations";

/** The organization's security policy, under its own key so whatever refreshes the organization refreshes it. */
export function organizationSecurityQuery(organizationId: string) {
  return queryOptions({
    queryKey: [...organizationKeys.detail(organizationId), "security"] as const,
    queryFn: () => apiCall(api.organizations[":organizationId"].security.$get({ param: { organizationId } })),
  });
}

export function useOrganizationSecurity(organizationId: string) {
  return useQuery(organizationSecurityQuery(organizationId));
}

/** Turns the second-factor requirement on or off; the form shows a refusal itself. */
export function useSetSecurityPolicy(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (requireTwoFactor: boolean) =>
      apiCall(
        api.organizations[":organizationId"].security.$patch({ param: { organizationId }, json: { requireTwoFactor } }),
      ),
    onSuccess: (security: OrganizationSecurity) =>
      queryClient.setQueryData(organizationSecurityQuery(organizationId).queryKey, security),
    meta: {
      errorToast: false,
      successMessage: (security: OrganizationSecurity) =>
        security.requireTwoFactor ? "Members now need a second factor" : "A second factor is no longer required",
    },
  });
}

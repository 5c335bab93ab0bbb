import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { JoinableOrganization } from "../../../../common/sso.schemas";
import { api, apiCall } from "../../../lib/api-client";
import { organizationKeys, useInvalidateOrganizations } from "./organizations";

/** Organizations the signed-in person may join by their verified address's domain (docs/sso.md). */
export const joinableOrganizationsQuery = queryOptions({
  queryKey: [...organizationKeys.all, "joinable"] as const,
  queryFn: () => apiCall(api.joinableOrganizations.index.$get()),
});

export function useJoinableOrganizations() {
  return useQuery(joinableOrganizationsQuery);
}

/** Joins one as a member; the person's organizations and this list follow. */
export function useJoinByDomain() {
  const invalidate = useInvalidateOrganizations();
  return useMutation({
    mutationFn: (organizationId: string) =>
      apiCall(api.joinableOrganizations[":organizationId"].join.$post({ param: { organizationId } })),
    onSuccess: invalidate,
    meta: { successMessage: (joined: JoinableOrganization) => `You joined ${joined.name}` },
  });
}

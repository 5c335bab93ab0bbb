import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { OrganizationScim, ScimTokenSecret, ScimTokenSummary } from "../../../../common/scim.schemas";
import { api, apiCall } from "../../../lib/api-client";
import { toResponseError } from "../../../lib/api-error";
import { organizationKeys } from "./organizations";

export type { OrganizationScim, ScimTokenSecret, ScimTokenSummary };

const scimKey = (organizationId: string) => [...organizationKeys.detail(organizationId), "scim"] as const;

/** The SCIM base URL and the organization's tokens (never their secrets). */
export function organizationScimQuery(organizationId: string) {
  return queryOptions({
    queryKey: scimKey(organizationId),
    queryFn: () => apiCall(api.scim[":organizationId"].scim.$get({ param: { organizationId } })),
  });
}

/** `enabled`: false for members, whom the server refuses (the page tells them who may instead). */
export function useOrganizationScim(organizationId: string, enabled = true) {
  return useQuery({ ...organizationScimQuery(organizationId), enabled });
}

/** Creates a token for a directory connection; its secret is in the answer only. */
export function useCreateScimToken(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (providerId: string): Promise<ScimTokenSecret> => {
      const response = await fetch("/api/auth/scim/generate-token", {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ providerId, organizationId }),
      });
      if (!response.ok) throw await toResponseError(response);
      return (await response.json()) as ScimTokenSecret;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: scimKey(organizationId) }),
    meta: { errorToast: false },
  });
}

/** A new secret for a token: the directory must be given it, the old one stops working at once. */
export function useRotateScimToken(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      apiCall(api.scim[":organizationId"].scim.tokens[":tokenId"].rotate.$post({ param: { organizationId, tokenId } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scimKey(organizationId) }),
  });
}

/** Revokes a token: the directory's next request is refused. */
export function useRevokeScimToken(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) =>
      apiCall(api.scim[":organizationId"].scim.tokens[":tokenId"].$delete({ param: { organizationId, tokenId } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scimKey(organizationId) }),
    meta: { successMessage: "Token revoked" },
  });
}

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateApiKeyInput, CreatedApiKey } from "../../../../common/api-key.schemas";
import { api, apiCall } from "../../../lib/api-client";
import { organizationKeys } from "./organizations";

export type { ApiKeySummary, CreatedApiKey } from "../../../../common/api-key.schemas";

/** The organization's keys (never their secrets), for its owners and admins. */
export function organizationApiKeysQuery(organizationId: string) {
  return queryOptions({
    queryKey: [...organizationKeys.detail(organizationId), "api-keys"] as const,
    queryFn: () => apiCall(api.apiKeys[":organizationId"]["api-keys"].$get({ param: { organizationId } })),
  });
}

/** `enabled`: false for members, whom the server refuses (the page tells them who may instead). */
export function useOrganizationApiKeys(organizationId: string, enabled = true) {
  return useQuery({ ...organizationApiKeysQuery(organizationId), enabled });
}

/** Creates a key; its answer holds the secret, which the page shows once. The form shows a refusal itself. */
export function useCreateApiKey(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiKeyInput): Promise<CreatedApiKey> =>
      apiCall(api.apiKeys[":organizationId"]["api-keys"].$post({ param: { organizationId }, json: input })),
    onSuccess: () => queryClient.invalidateQueries(organizationApiKeysQuery(organizationId)),
    meta: { errorToast: false },
  });
}

/** Revokes a key: every instance refuses it within a second. */
export function useRevokeApiKey(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: { id: string; name: string }) =>
      apiCall(
        api.apiKeys[":organizationId"]["api-keys"][":keyId"].$delete({ param: { organizationId, keyId: key.id } }),
      ),
    onSuccess: () => queryClient.invalidateQueries(organizationApiKeysQuery(organizationId)),
    meta: { successMessage: (_: unknown, key: { name: string }) => `API key ${key.name} revoked` },
  });
}

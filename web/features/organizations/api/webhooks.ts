import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateWebhookInput, UpdateWebhookInput } from "../../../../common/webhook.schemas";
import { api, apiCall } from "../../../lib/api-client";
import { organizationKeys } from "./organizations";

const webhooksKey = (organizationId: string) => [...organizationKeys.detail(organizationId), "webhooks"] as const;
const hooks = api.webhooks[":organizationId"].webhooks;

/** The organization's endpoints (owners and admins only: `enabled` is false for members). */
export function webhooksQuery(organizationId: string) {
  return queryOptions({
    queryKey: webhooksKey(organizationId),
    queryFn: () => apiCall(hooks.$get({ param: { organizationId } })),
  });
}

export function useWebhooks(organizationId: string, enabled = true) {
  return useQuery({ ...webhooksQuery(organizationId), enabled });
}

/** How often an open delivery log is read again: deliveries are made in the background, seconds after the event. */
const DELIVERIES_REFRESH_MS = 5_000;

/** One endpoint's delivery log, newest attempt first, kept fresh while it is shown. */
export function useWebhookDeliveries(organizationId: string, webhookId: string) {
  return useQuery({
    queryKey: [...webhooksKey(organizationId), webhookId, "deliveries"] as const,
    queryFn: () => apiCall(hooks[":webhookId"].deliveries.$get({ param: { organizationId, webhookId } })),
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
}

function useWebhookMutation<TInput, TOutput>(
  organizationId: string,
  mutationFn: (input: TInput) => Promise<TOutput>,
  successMessage?: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(organizationId) }),
    meta: { errorToast: false, ...(successMessage ? { successMessage } : {}) },
  });
}

/** Registers an endpoint; answers its id and secret (shown once in a dialog, then by "Reveal"). */
export function useCreateWebhook(organizationId: string) {
  return useWebhookMutation(organizationId, (json: CreateWebhookInput) =>
    apiCall(hooks.$post({ param: { organizationId }, json })),
  );
}

export function useUpdateWebhook(organizationId: string) {
  return useWebhookMutation(organizationId, ({ webhookId, json }: { webhookId: string; json: UpdateWebhookInput }) =>
    apiCall(hooks[":webhookId"].$patch({ param: { organizationId, webhookId }, json })),
  );
}

/** Removes an endpoint, asked for in a dialog: a refusal is a toast, the dialog staying open to try again. */
export function useDeleteWebhook(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => apiCall(hooks[":webhookId"].$delete({ param: { organizationId, webhookId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey(organizationId) }),
    meta: { successMessage: "Webhook endpoint removed" },
  });
}

export function useRevealSecret(organizationId: string) {
  return useMutation({
    mutationFn: (webhookId: string) =>
      apiCall(hooks[":webhookId"].secret.$get({ param: { organizationId, webhookId } })),
    meta: { errorToast: false },
  });
}

export function useRotateSecret(organizationId: string) {
  return useWebhookMutation(
    organizationId,
    (webhookId: string) =>
      apiCall(hooks[":webhookId"]["rotate-secret"].$post({ param: { organizationId, webhookId } })),
    "Secret rotated: the previous one still signs for 24 hours",
  );
}

export function useSendTestEvent(organizationId: string) {
  return useWebhookMutation(
    organizationId,
    (webhookId: string) => apiCall(hooks[":webhookId"].test.$post({ param: { organizationId, webhookId } })),
    "Test event queued",
  );
}

export function useRedeliver(organizationId: string) {
  return useWebhookMutation(
    organizationId,
    ({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) =>
      apiCall(
        hooks[":webhookId"].deliveries[":deliveryId"].redeliver.$post({
          param: { organizationId, webhookId, deliveryId },
        }),
      ),
    "Delivery queued again",
  );
}

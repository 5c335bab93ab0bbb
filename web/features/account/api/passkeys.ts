import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";

/** A passkey of the signed-in account, as its list shows it. */
export type Passkey = { id: string; name: string | null; createdAt: Date; lastUsedAt: Date | null };

export const passkeysQuery = queryOptions({
  queryKey: ["account", "passkeys"],
  queryFn: async (): Promise<Passkey[]> =>
    unwrap(await authClient.passkey.listUserPasskeys())
      .map((passkey) => {
        // The server adds lastUsedAt to each passkey (server/auth/passkey-rules.ts); the client's types do not know it.
        const lastUsedAt = (passkey as { lastUsedAt?: string | Date | null }).lastUsedAt;
        return {
          id: passkey.id,
          name: passkey.name ?? null,
          createdAt: new Date(passkey.createdAt),
          lastUsedAt: lastUsedAt ? new Date(lastUsedAt) : null,
        };
      })
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()),
});

export function usePasskeys() {
  return useQuery(passkeysQuery);
}

/**
 * Adds a passkey under `name`: the server's options, the browser's prompt, then the server's check. Closing the
 * prompt answers with an error whose code says so (ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY), which the card words.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name }: { name: string }) => unwrap(await authClient.passkey.addPasskey({ name })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysQuery.queryKey }),
    meta: {
      successMessage: (_data: unknown, { name }: { name: string }) => `Passkey “${name}” added`,
      errorToast: false,
    },
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, name }: { id: string; name: string }) =>
      unwrap(await authClient.passkey.updatePasskey({ id, name })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysQuery.queryKey }),
    meta: { successMessage: "Passkey renamed", errorToast: false },
  });
}

export function useDeletePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id }: { id: string; name: string }) => unwrap(await authClient.passkey.deletePasskey({ id })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysQuery.queryKey }),
    meta: {
      successMessage: (_data: unknown, { name }: { name: string }) => `Passkey “${name}” deleted`,
      errorToast: false,
    },
  });
}

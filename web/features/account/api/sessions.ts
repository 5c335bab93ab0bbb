import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";

export const sessionsQuery = queryOptions({
  queryKey: ["account", "sessions"],
  queryFn: async () => unwrap(await authClient.listSessions()),
});

export function useSessions() {
  return useQuery(sessionsQuery);
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (token: string) => unwrap(await authClient.revokeSession({ token })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
    meta: { successMessage: "Session signed out" },
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(await authClient.revokeOtherSessions()),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
    meta: { successMessage: "Other sessions signed out" },
  });
}

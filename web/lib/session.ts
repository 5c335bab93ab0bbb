import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "./api-error";
import { authClient } from "./auth-client";

/** The signed-in session, or null. One cache entry the whole app reads and refreshes. */
export const sessionQuery = queryOptions({
  queryKey: ["session"],
  queryFn: async () => unwrap(await authClient.getSession()) ?? null,
  staleTime: 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}

/** After sign-in, sign-out, verification, profile changes or deletion: the spec refreshes the session then. */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return async (options: { clearEverything?: boolean } = {}) => {
    if (options.clearEverything) queryClient.clear();
    await queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
    await queryClient.fetchQuery(sessionQuery);
  };
}

/** Only same-app paths may be redirect targets; anything else goes home. */
export function safeRedirect(target: string | undefined): string {
  return target && target.startsWith("/") && !target.startsWith("//") && !target.startsWith("/\\") ? target : "/";
}

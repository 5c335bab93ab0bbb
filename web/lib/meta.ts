import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, apiCall, type ApiData } from "./api-client";

/** What this deployment has switched on (dev mailbox, social providers, who may create organizations…). */
export type AppMeta = ApiData<Awaited<ReturnType<typeof api.meta.index.$get>>>;

/** What this deployment has switched on, for hints such as the dev mailbox link. */
export const metaQuery = queryOptions({ queryKey: ["meta"], queryFn: () => apiCall(api.meta.index.$get()), staleTime: Infinity });

export function useAppMeta() {
  return useQuery(metaQuery);
}

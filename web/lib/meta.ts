import { queryOptions, useQuery } from "@tanstack/react-query";
import type { api, ApiData } from "./api-client";
import { toResponseError } from "./api-error";

/** What this deployment has switched on (dev mailbox, social providers, who may create organizations…). */
export type AppMeta = ApiData<Awaited<ReturnType<typeof api.meta.index.$get>>>;

/**
 * GET /api/meta with a plain fetch rather than the typed client (./api-client.ts): the signed-out pages read it
 * first (which sign-in providers to offer), and hono's client would otherwise load with them. Same answer, same
 * errors (an ApiError with the friendly message) as `apiCall(api.meta.index.$get())`; its type is the route's.
 */
async function fetchMeta(): Promise<AppMeta> {
  const response = await fetch("/api/meta", { credentials: "include", headers: { accept: "application/json" } });
  if (!response.ok) throw await toResponseError(response);
  return (await response.json()) as AppMeta;
}

/** What this deployment has switched on, for hints such as the dev mailbox link. */
export const metaQuery = queryOptions({ queryKey: ["meta"], queryFn: fetchMeta, staleTime: Infinity });

export function useAppMeta() {
  return useQuery(metaQuery);
}

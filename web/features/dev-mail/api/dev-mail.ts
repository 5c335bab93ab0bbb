import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, apiCall, type ApiData } from "../../../lib/api-client";

/** One mail of the dev mailbox, as GET /api/dev/mail answers it. */
export type DevMail = ApiData<Awaited<ReturnType<typeof api.devMail.index.$get>>>[number];

export function devMailQuery(to: string) {
  return queryOptions({
    queryKey: ["dev-mail", to],
    queryFn: () => apiCall(api.devMail.index.$get({ query: to ? { to } : {} })),
    refetchInterval: 3_000,
  });
}

export function useDevMail(to: string) {
  return useQuery(devMailQuery(to));
}

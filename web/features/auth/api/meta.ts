import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client";

export type AppMeta = {
  devMailbox: boolean;
  billingSandbox: boolean;
  socialProviders: Array<"github" | "google">;
  organizations: { whoMayCreate: "everyone" | "admins" | "nobody"; isDeletionDisabled: boolean; limit: number | null };
};

/** What this deployment has switched on, for hints such as the dev mailbox link. */
export const metaQuery = queryOptions({ queryKey: ["meta"], queryFn: () => apiFetch<AppMeta>("/api/meta"), staleTime: Infinity });

export function useAppMeta() {
  return useQuery(metaQuery);
}

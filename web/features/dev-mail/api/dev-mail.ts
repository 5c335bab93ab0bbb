import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client";

export type DevMail = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };

export function devMailQuery(to: string) {
  return queryOptions({
    queryKey: ["dev-mail", to],
    queryFn: () => apiFetch<DevMail[]>(`/api/dev/mail${to ? `?to=${encodeURIComponent(to)}` : ""}`),
    refetchInterval: 3_000,
  });
}

export function useDevMail(to: string) {
  return useQuery(devMailQuery(to));
}

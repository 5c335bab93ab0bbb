import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AuditLogQuery } from "../../../../common/audit.schemas";
import { api, apiCall } from "../../../lib/api-client";
import { organizationKeys } from "./organizations";

/** The organization's filters: the server scopes the log to the organization in the URL whatever the query says. */
export type OrganizationAuditLogQuery = Omit<AuditLogQuery, "organizationId">;

/**
 * Under the organization's own key, so whatever refreshes the organization (a member removed, a team renamed)
 * refreshes its log too.
 */
export function organizationAuditLogQuery(
  organizationId: string,
  { limit, offset, ...filters }: OrganizationAuditLogQuery,
) {
  return queryOptions({
    queryKey: [...organizationKeys.detail(organizationId), "audit-log", { ...filters, limit, offset }] as const,
    queryFn: () =>
      apiCall(
        api.organizationAuditLog[":organizationId"]["audit-log"].$get({
          param: { organizationId },
          query: { ...filters, limit: String(limit), offset: String(offset) },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** `enabled` is false for members: the server refuses them, so the page says why instead of asking. */
export function useOrganizationAuditLog(organizationId: string, query: OrganizationAuditLogQuery, enabled: boolean) {
  return useQuery({ ...organizationAuditLogQuery(organizationId, query), enabled });
}

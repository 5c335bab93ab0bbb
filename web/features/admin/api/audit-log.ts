import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AuditLogQuery } from "../../../../common/audit.schemas";
import { api, apiCall } from "../../../lib/api-client";

/** The whole audit log, under ["admin"]: an admin change invalidates ["admin"], so the entry it made shows at once. */
export const adminAuditLogKeys = {
  all: ["admin", "audit-log"] as const,
  page: (query: AuditLogQuery) => [...adminAuditLogKeys.all, query] as const,
};

/** One page of entries matching the filters, newest first; the previous page stays on screen while the next one loads. */
export function adminAuditLogQuery({ limit, offset, ...filters }: AuditLogQuery) {
  return queryOptions({
    queryKey: adminAuditLogKeys.page({ ...filters, limit, offset }),
    queryFn: () =>
      apiCall(api.adminAuditLog.index.$get({ query: { ...filters, limit: String(limit), offset: String(offset) } })),
    placeholderData: keepPreviousData,
  });
}

export function useAdminAuditLog(query: AuditLogQuery) {
  return useQuery(adminAuditLogQuery(query));
}

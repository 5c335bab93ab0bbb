import type { AuditLogQuery } from "../../../../../common/audit.schemas";
import {
  AuditActionField,
  AuditDateRangeFields,
  AuditLogExportLink,
  AuditLogResults,
} from "../../../../components/audit-log-table";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { EmptyState } from "../../../../components/ui/page";
import type { SearchChange } from "../../../../lib/search-change";
import { useOrganizationAuditLog } from "../../api/audit-log";
import { useOrganizationContext } from "../../components/organization-context";

/** The tab's URL state: an action and a range of days, and the page. */
export type OrganizationAuditLogSearch = Pick<AuditLogQuery, "action" | "from" | "to" | "limit" | "offset">;

/**
 * Settings › Audit log, for owners and admins: what was changed in the organization (members, invitations, teams,
 * settings, billing), by whom and when, filtered by action and days and exported as CSV. The filters and page live
 * in the URL (the route owns it). A member who opens the address is told who can see it; the server refuses them too.
 */
export function OrganizationAuditLogPage({
  search,
  onSearchChange,
}: {
  search: OrganizationAuditLogSearch;
  onSearchChange: SearchChange<OrganizationAuditLogSearch>;
}) {
  const { organization, can } = useOrganizationContext();
  const mayList = can({ auditLog: ["list"] });
  const log = useOrganizationAuditLog(organization.id, search, mayList);

  if (!mayList) {
    return (
      <Card>
        <CardHeader title="Audit log" />
        <EmptyState title="Only owners and admins can see the audit log">
          Ask an owner or admin of {organization.name} what changed.
        </EmptyState>
      </Card>
    );
  }

  const { limit, offset, ...filters } = search;
  const hasFilters = Object.values(filters).some((value) => value !== undefined);
  /** A filter change starts again at the first page. */
  const filter = (next: Partial<OrganizationAuditLogSearch>) =>
    onSearchChange((current) => ({ ...current, ...next, offset: 0 }));

  return (
    <Card>
      <CardHeader
        title="Audit log"
        description={`Every change to ${organization.name}'s members, invitations, teams, settings and billing, newest first.`}
        action={
          <AuditLogExportLink
            path={`/api/organizations/${encodeURIComponent(organization.id)}/audit-log/export`}
            filters={filters}
          />
        }
      />
      <div role="search" aria-label="Audit log" className="grid gap-4 sm:grid-cols-3">
        <AuditActionField value={search.action} onChange={(action) => filter({ action })} excludeUsers />
        <AuditDateRangeFields from={search.from} to={search.to} onChange={(range) => filter(range)} />
      </div>
      <div className="mt-6">
        <AuditLogResults
          log={log}
          limit={limit}
          offset={offset}
          hasFilters={hasFilters}
          emptyHint={{
            filtered: "Try another action or a wider range of days.",
            unfiltered: "Changes appear here as owners, admins and members make them.",
          }}
          clearFilters={
            // Stays (unavailable) once used, so the focus it had is not lost.
            <Button
              variant="ghost"
              size="sm"
              disabled={!hasFilters}
              focusableWhenDisabled
              onClick={() => onSearchChange((current) => ({ limit: current.limit, offset: 0 }))}
            >
              Clear filters
            </Button>
          }
          onPageChange={(next) => onSearchChange((current) => ({ ...current, offset: next }))}
          onLimitChange={(size) => onSearchChange((current) => ({ ...current, limit: size, offset: 0 }))}
        />
      </div>
    </Card>
  );
}

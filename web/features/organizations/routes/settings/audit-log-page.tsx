import { ADMIN_PAGE_SIZES } from "../../../../../common/admin.schemas";
import type { AuditLogQuery } from "../../../../../common/audit.schemas";
import { AuditActionField, AuditDateRangeFields, AuditLogExportLink, AuditLogTable } from "../../../../components/audit-log-table";
import { Alert } from "../../../../components/ui/alert";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { EmptyState } from "../../../../components/ui/page";
import { Pagination } from "../../../../components/ui/pagination";
import { LoadingBlock, Spinner } from "../../../../components/ui/spinner";
import { errorMessage } from "../../../../lib/api-error";
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
  onSearchChange: (next: OrganizationAuditLogSearch) => void;
}) {
  const { organization, can } = useOrganizationContext();
  const mayList = can({ auditLog: ["list"] });
  const log = useOrganizationAuditLog(organization.id, search, mayList);

  if (!mayList) {
    return (
      <Card>
        <CardHeader title="Audit log" />
        <EmptyState title="Only owners and admins can see the audit log">Ask an owner or admin of {organization.name} what changed.</EmptyState>
      </Card>
    );
  }

  const { limit, offset, ...filters } = search;
  const hasFilters = Object.values(filters).some((value) => value !== undefined);
  const total = log.data?.total ?? 0;
  const entries = log.data?.entries ?? [];
  /** A filter change starts again at the first page. */
  const filter = (next: Partial<OrganizationAuditLogSearch>) => onSearchChange({ ...search, ...next, offset: 0 });

  return (
    <Card>
      <CardHeader
        title="Audit log"
        description={`Every change to ${organization.name}'s members, invitations, teams, settings and billing, newest first.`}
        action={<AuditLogExportLink path={`/api/organizations/${encodeURIComponent(organization.id)}/audit-log/export`} filters={filters} />}
      />
      <div role="search" aria-label="Audit log" className="grid gap-4 sm:grid-cols-3">
        <AuditActionField value={search.action} onChange={(action) => filter({ action })} excludeUsers />
        <AuditDateRangeFields from={search.from} to={search.to} onChange={(range) => filter(range)} />
      </div>
      <div className="mt-6 mb-2 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <p role="status" className="text-sm font-medium">
            {log.data ? `${total.toLocaleString()} ${total === 1 ? "entry" : "entries"}${hasFilters ? " match the filters" : ""}` : ""}
          </p>
          {log.isFetching && !log.isPending ? <Spinner label="Updating…" /> : null}
          {/* Stays (unavailable) once used, so the focus it had is not lost. */}
          <Button variant="ghost" size="sm" disabled={!hasFilters} focusableWhenDisabled onClick={() => onSearchChange({ limit, offset: 0 })}>
            Clear filters
          </Button>
        </div>
        <label className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          Rows per page
          <select
            value={limit}
            onChange={(event) => onSearchChange({ ...search, limit: Number(event.target.value), offset: 0 })}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
          >
            {ADMIN_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
      </div>
      {log.isPending ? <LoadingBlock label="Loading the audit log…" /> : null}
      {log.isError ? (
        <Alert tone="error" title="The audit log could not load">
          <p>{errorMessage(log.error)}</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => log.refetch()} isLoading={log.isFetching}>
            Try again
          </Button>
        </Alert>
      ) : null}
      {log.data && entries.length === 0 ? (
        total > 0 ? (
          // An old link can point past the last page.
          <EmptyState title="This page is past the last entry">
            <Button variant="secondary" size="sm" className="mt-2" onClick={() => onSearchChange({ ...search, offset: 0 })}>
              Go to the first page
            </Button>
          </EmptyState>
        ) : (
          <EmptyState title={hasFilters ? "No entries match these filters" : "Nothing recorded yet"}>
            {hasFilters ? "Try another action or a wider range of days." : "Changes appear here as owners, admins and members make them."}
          </EmptyState>
        )
      ) : null}
      {entries.length > 0 ? (
        <div aria-busy={log.isPlaceholderData || undefined} className={log.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}>
          <AuditLogTable entries={entries} />
        </div>
      ) : null}
      <Pagination label="Audit log pages" offset={offset} pageSize={limit} total={total} onChange={(next) => onSearchChange({ ...search, offset: next })} />
    </Card>
  );
}

import { useEffect, useState } from "react";
import { ADMIN_PAGE_SIZES } from "../../../../common/admin.schemas";
import type { AuditLogQuery } from "../../../../common/audit.schemas";
import { AuditActionField, AuditDateRangeFields, AuditLogExportLink, AuditLogTable } from "../../../components/audit-log-table";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { EmptyState, PageHeader } from "../../../components/ui/page";
import { Pagination } from "../../../components/ui/pagination";
import { LoadingBlock, Spinner } from "../../../components/ui/spinner";
import { TextField } from "../../../components/ui/text-field";
import { errorMessage } from "../../../lib/api-error";
import { useDebouncedValue } from "../../../lib/use-debounced-value";
import { useAdminAuditLog } from "../api/audit-log";

/** The log's URL state: every filter optional, the page always there (the route fills in its defaults). */
export type AdminAuditLogSearch = AuditLogQuery;

type IdFilter = "actorId" | "targetId" | "organizationId";

/**
 * An id filter: what is typed applies once typing pauses (ids are usually pasted; a partial one simply matches
 * nothing), and the box follows the URL when it changes on its own.
 */
function IdField({
  label,
  description,
  value,
  onCommit,
}: {
  label: string;
  description: string;
  value: string | undefined;
  onCommit: (value: string | undefined) => void;
}) {
  const committed = value ?? "";
  const [text, setText] = useState(committed);
  const [shown, setShown] = useState(committed);
  if (committed !== shown) {
    setShown(committed);
    if (text.trim() !== committed) setText(committed);
  }
  const typed = useDebouncedValue(text.trim());
  useEffect(() => {
    if (typed !== committed) onCommit(typed || undefined);
    // Only a new pause in typing commits (hence `typed` alone): the URL changing on its own must not be written back.
  }, [typed]);
  return (
    <TextField label={label} description={description} value={text} onChange={(event) => setText(event.target.value)} autoComplete="off" spellCheck={false} />
  );
}

const ID_FILTERS: Array<{ key: IdFilter; label: string; description: string }> = [
  { key: "actorId", label: "Done by (user id)", description: "Who made the change." },
  { key: "targetId", label: "About (id)", description: "A user, member, team, invitation…" },
  { key: "organizationId", label: "Organization id", description: "Everything in one organization." },
];

/**
 * The console's Audit log tab: every recorded change, newest first, filtered by action, who, what, organization
 * and days, with the same filters exported as CSV. The filters and page live in the URL (the route owns it).
 */
export function AdminAuditLogPage({ search, onSearchChange }: { search: AdminAuditLogSearch; onSearchChange: (next: AdminAuditLogSearch) => void }) {
  const log = useAdminAuditLog(search);
  const { limit, offset, ...filters } = search;
  const hasFilters = Object.values(filters).some((value) => value !== undefined && value !== "");
  const total = log.data?.total ?? 0;
  const entries = log.data?.entries ?? [];
  /** A filter change starts again at the first page. */
  const filter = (next: Partial<AuditLogQuery>) => onSearchChange({ ...search, ...next, offset: 0 });

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change platform admins, organization owners and admins made, and the billing changes asked of the payment provider."
        action={<AuditLogExportLink path="/api/admin/audit-log/export" filters={filters} />}
      />
      <div className="space-y-6">
        <Card>
          <div role="search" aria-label="Audit log" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            <AuditActionField value={search.action} onChange={(action) => filter({ action })} />
            {ID_FILTERS.map(({ key, label, description }) => (
              <IdField key={key} label={label} description={description} value={search[key]} onCommit={(value) => filter({ [key]: value })} />
            ))}
            <AuditDateRangeFields from={search.from} to={search.to} onChange={(range) => filter(range)} />
          </div>
          <div className="mt-4 flex justify-end">
            {/* Stays (unavailable) once used, so the focus it had is not lost. */}
            <Button variant="secondary" size="sm" disabled={!hasFilters} focusableWhenDisabled onClick={() => onSearchChange({ limit, offset: 0 })}>
              Clear filters
            </Button>
          </div>
        </Card>
        <Card>
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <div className="flex items-center gap-3">
              <p role="status" className="text-sm font-medium">
                {log.data ? `${total.toLocaleString()} ${total === 1 ? "entry" : "entries"}${hasFilters ? " match the filters" : ""}` : ""}
              </p>
              {log.isFetching && !log.isPending ? <Spinner label="Updating…" /> : null}
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
                {hasFilters ? "Try fewer filters or a wider range of days." : "Changes appear here as people make them."}
              </EmptyState>
            )
          ) : null}
          {entries.length > 0 ? (
            <div aria-busy={log.isPlaceholderData || undefined} className={log.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}>
              <AuditLogTable entries={entries} showOrganization />
            </div>
          ) : null}
          <Pagination label="Audit log pages" offset={offset} pageSize={limit} total={total} onChange={(next) => onSearchChange({ ...search, offset: next })} />
        </Card>
      </div>
    </>
  );
}

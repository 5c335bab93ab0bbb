import type { AuditLogQuery } from "../../../../common/audit.schemas";
import {
  AuditActionField,
  AuditDateRangeFields,
  AuditLogExportLink,
  AuditLogResults,
} from "../../../components/audit-log-table";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { PageHeader } from "../../../components/ui/page";
import { TextField } from "../../../components/ui/text-field";
import type { SearchChange } from "../../../lib/search-change";
import { useSearchText } from "../../../lib/use-search-text";
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
  const [text, setText] = useSearchText(value, onCommit);
  return (
    <TextField
      label={label}
      description={description}
      value={text}
      onChange={(event) => setText(event.target.value)}
      autoComplete="off"
      spellCheck={false}
    />
  );
}

const ID_FILTERS: Array<{ key: IdFilter; label: string; description: string }> = [
  { key: "actorId", label: "Done by (user id)", description: "Who made the change." },
  { key: "targetId", label: "About (id)", description: "A user, team, invitation, organization…" },
  { key: "organizationId", label: "Organization id", description: "Everything in one organization." },
];

/**
 * The console's Audit log tab: every recorded change, newest first, filtered by action, who, what, organization
 * and days, with the same filters exported as CSV. The filters and page live in the URL (the route owns it).
 */
export function AdminAuditLogPage({
  search,
  onSearchChange,
}: {
  search: AdminAuditLogSearch;
  onSearchChange: SearchChange<AdminAuditLogSearch>;
}) {
  const log = useAdminAuditLog(search);
  const { limit, offset, ...filters } = search;
  const hasFilters = Object.values(filters).some((value) => value !== undefined && value !== "");
  /** A filter change starts again at the first page. */
  const filter = (next: Partial<AuditLogQuery>) => onSearchChange((current) => ({ ...current, ...next, offset: 0 }));

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
              <IdField
                key={key}
                label={label}
                description={description}
                value={search[key]}
                onCommit={(value) => filter({ [key]: value })}
              />
            ))}
            <AuditDateRangeFields from={search.from} to={search.to} onChange={(range) => filter(range)} />
          </div>
          <div className="mt-4 flex justify-end">
            {/* Stays (unavailable) once used, so the focus it had is not lost. */}
            <Button
              variant="secondary"
              size="sm"
              disabled={!hasFilters}
              focusableWhenDisabled
              onClick={() => onSearchChange((current) => ({ limit: current.limit, offset: 0 }))}
            >
              Clear filters
            </Button>
          </div>
        </Card>
        <Card>
          <AuditLogResults
            log={log}
            limit={limit}
            offset={offset}
            hasFilters={hasFilters}
            showOrganization
            emptyHint={{
              filtered: "Try fewer filters or a wider range of days.",
              unfiltered: "Changes appear here as people make them.",
            }}
            onPageChange={(next) => onSearchChange((current) => ({ ...current, offset: next }))}
            onLimitChange={(size) => onSearchChange((current) => ({ ...current, limit: size, offset: 0 }))}
          />
        </Card>
      </div>
    </>
  );
}

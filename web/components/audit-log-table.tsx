import { useState, type ReactNode } from "react";
import type { AuditAction, AuditActor, AuditEntry, AuditLogPage, AuditLogQuery } from "../../common/audit.schemas";
import { errorMessage } from "../lib/api-error";
import { AUDIT_ACTION_LABELS, auditActionGroups, describeAuditEntry } from "../lib/audit-actions";
import { cn } from "../lib/cn";
import { describeDevice } from "../lib/device";
import { formatDateTime } from "../lib/format";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { EmptyState } from "./ui/page";
import { PageSizeSelect, Pagination } from "./ui/pagination";
import { LoadingBlock, Spinner } from "./ui/spinner";
import { MobileLabel, Table } from "./ui/table";
import { SelectField, TextField } from "./ui/text-field";

const secondary = "text-xs text-zinc-500 dark:text-zinc-400";

/** Who did it: the user as labelled then, an API key or a directory by its name then, or the command line. */
function actorName({ type, label }: AuditActor): string {
  if (type === "user") return label;
  // `npm run admin`, which has no account.
  if (type === "command_line") return "Command line";
  return `${type === "api_key" ? "API key" : "Directory sync"}: ${label}`;
}

/** The "Who" cell: the actor, the platform admin impersonating them, from which address and device. */
function Actor({ entry }: { entry: AuditEntry }) {
  return (
    <>
      <p className="font-medium max-sm:font-normal">{actorName(entry.actor)}</p>
      {entry.impersonator ? (
        <p className={secondary}>
          <span className="sr-only">impersonated by a platform admin, </span>via {entry.impersonator.label}
        </p>
      ) : null}
      {entry.ipAddress || entry.userAgent ? (
        <p className={secondary}>
          {/* The full user agent is kept for whoever needs it; the cell shows the device it names. */}
          {[
            entry.ipAddress,
            entry.userAgent ? <span title={entry.userAgent}>{describeDevice(entry.userAgent)}</span> : null,
          ]
            .filter(Boolean)
            .map((part, index) => (
              <span key={index}>
                {index > 0 ? " · " : null}
                {part}
              </span>
            ))}
        </p>
      ) : null}
    </>
  );
}

/**
 * Audit entries, newest first as given: when, who (and from where), what in words, the organization (when the
 * view spans several), and the reason given. Below `sm` each entry is a block: what and when first, then the rest
 * (the cells spanning both columns flow into the next rows in order, so a missing organization or reason leaves no gap).
 */
export function AuditLogTable({
  entries,
  showOrganization = false,
}: {
  entries: AuditEntry[];
  showOrganization?: boolean;
}) {
  return (
    <Table label="Audit log" columns={["When", "Who", "What", ...(showOrganization ? ["Organization"] : []), "Reason"]}>
      {entries.map((entry) => (
        <tr key={entry.id} className="align-top">
          <td className="py-3 pr-4 whitespace-nowrap max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right max-sm:text-xs max-sm:text-zinc-500 max-sm:dark:text-zinc-400">
            <time dateTime={entry.createdAt}>{formatDateTime(entry.createdAt)}</time>
          </td>
          <td className="py-3 pr-4 max-sm:col-span-2 sm:min-w-40">
            <Actor entry={entry} />
          </td>
          <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-1 max-sm:font-medium sm:min-w-56">
            {describeAuditEntry(entry)}
          </td>
          {showOrganization ? (
            <td className={cn("py-3 pr-4 max-sm:col-span-2", !entry.organization && "max-sm:hidden!")}>
              {entry.organization ? (
                <>
                  <MobileLabel>In </MobileLabel>
                  {/* The name it had then; an entry recorded without one shows the id it still has. */}
                  {entry.organization.name ?? <span className="font-mono text-xs">{entry.organization.id}</span>}
                </>
              ) : (
                <span className="text-zinc-400 dark:text-zinc-500">
                  <span aria-hidden="true">—</span>
                  <span className="sr-only">None</span>
                </span>
              )}
            </td>
          ) : null}
          <td className={cn("py-3 pr-4 max-sm:col-span-2 sm:max-w-72", !entry.reason && "max-sm:hidden!")}>
            {entry.reason ? (
              <>
                <MobileLabel>Reason: </MobileLabel>
                {entry.reason}
              </>
            ) : (
              <span className="text-zinc-400 dark:text-zinc-500">
                <span aria-hidden="true">—</span>
                <span className="sr-only">None given</span>
              </span>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

type AuditFilters = Partial<Pick<AuditLogQuery, "action" | "actorId" | "targetId" | "organizationId" | "from" | "to">>;
/** In the order the filters show, so the same filters always make the same address. */
const FILTER_KEYS: Array<keyof AuditFilters> = ["action", "actorId", "targetId", "organizationId", "from", "to"];

/**
 * "Export CSV": a plain download link to the log's export endpoint (`path`) with the filters in force, so the
 * browser saves the server's attachment itself however large it is. Paging does not apply: every match is exported,
 * so only the filters go into the address.
 */
export function AuditLogExportLink({ path, filters }: { path: string; filters: AuditFilters }) {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  const query = params.toString();
  return (
    <a
      href={query ? `${path}?${query}` : path}
      download
      className="inline-flex items-center justify-center gap-2 rounded-lg border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium whitespace-nowrap text-zinc-900 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
    >
      <svg viewBox="0 0 20 20" fill="currentColor" className="size-4" aria-hidden="true">
        <path d="M10 3a1 1 0 0 1 1 1v7.59l2.3-2.3a1 1 0 1 1 1.4 1.42l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.42L9 11.6V4a1 1 0 0 1 1-1Zm-6 12a1 1 0 0 1 1 1v1h10v-1a1 1 0 1 1 2 0v2a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1v-2a1 1 0 0 1 1-1Z" />
      </svg>
      Export CSV
    </a>
  );
}

/** The action filter: every action, worded and grouped; `excludeUsers` drops the platform's user actions (an organization's log has none). */
export function AuditActionField({
  value,
  onChange,
  excludeUsers = false,
}: {
  value: AuditAction | undefined;
  onChange: (action: AuditAction | undefined) => void;
  excludeUsers?: boolean;
}) {
  return (
    <SelectField
      label="Action"
      value={value ?? ""}
      onChange={(event) => onChange((event.target.value || undefined) as AuditAction | undefined)}
    >
      <option value="">Every action</option>
      {auditActionGroups(excludeUsers ? ["user"] : []).map((group) => (
        <optgroup key={group.label} label={group.label}>
          {group.actions.map((action) => (
            <option key={action} value={action}>
              {AUDIT_ACTION_LABELS[action]}
            </option>
          ))}
        </optgroup>
      ))}
    </SelectField>
  );
}

type DayRange = { from?: string; to?: string };

/**
 * "From" and "To" days (YYYY-MM-DD, as the server reads them: whole days in UTC). A range that ends before it
 * starts is shown with its error and not applied, so the list keeps the last range that made sense. Other lists
 * filtered by days (the admin console's users) use it with their own `labels`.
 */
export function AuditDateRangeFields({
  from,
  to,
  onChange,
  labels = { from: "From", to: "To" },
}: DayRange & { onChange: (range: DayRange) => void; labels?: { from: string; to: string } }) {
  const [draft, setDraft] = useState({ from: from ?? "", to: to ?? "" });
  const [applied, setApplied] = useState<DayRange>({ from, to });
  // The filters changed from outside (cleared, the back button): show them.
  if (applied.from !== from || applied.to !== to) {
    setApplied({ from, to });
    setDraft({ from: from ?? "", to: to ?? "" });
  }
  const isBackwards = (range: { from: string; to: string }) => Boolean(range.from && range.to && range.from > range.to);

  function change(next: { from: string; to: string }) {
    setDraft(next);
    if (!isBackwards(next)) onChange({ from: next.from || undefined, to: next.to || undefined });
  }

  return (
    <>
      <TextField
        label={labels.from}
        type="date"
        value={draft.from}
        max={draft.to || undefined}
        onChange={(event) => change({ ...draft, from: event.target.value })}
      />
      <TextField
        label={labels.to}
        type="date"
        value={draft.to}
        min={draft.from || undefined}
        description="Whole days, midnight to midnight UTC."
        error={isBackwards(draft) ? "Choose a day on or after the start" : undefined}
        onChange={(event) => change({ ...draft, to: event.target.value })}
      />
    </>
  );
}

/** What `AuditLogResults` needs of the query that reads a page of the log. */
type AuditLogPageQuery = {
  data?: AuditLogPage;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
};

/**
 * One page of a log with its count, page size, loading, error, empty and past-the-end states and paging: the
 * platform admins' log and an organization's own use it alike. `clearFilters` sits next to the count.
 */
export function AuditLogResults({
  log,
  limit,
  offset,
  hasFilters,
  showOrganization,
  emptyHint,
  clearFilters,
  onPageChange,
  onLimitChange,
}: {
  log: AuditLogPageQuery;
  limit: number;
  offset: number;
  hasFilters: boolean;
  showOrganization?: boolean;
  /** What the empty state suggests, with filters and without. */
  emptyHint: { filtered: string; unfiltered: string };
  clearFilters?: ReactNode;
  onPageChange: (offset: number) => void;
  onLimitChange: (limit: number) => void;
}) {
  const total = log.data?.total ?? 0;
  const entries = log.data?.entries ?? [];
  return (
    <>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <p role="status" className="text-sm font-medium">
            {log.data
              ? `${total.toLocaleString()} ${total === 1 ? "entry" : "entries"}${hasFilters ? " match the filters" : ""}`
              : ""}
          </p>
          {log.isFetching && !log.isPending ? <Spinner label="Updating…" /> : null}
          {clearFilters}
        </div>
        <PageSizeSelect value={limit} onChange={onLimitChange} />
      </div>
      {log.isPending ? <LoadingBlock label="Loading the audit log…" /> : null}
      {log.isError ? (
        <Alert tone="error" title="The audit log could not load">
          <p>{errorMessage(log.error)}</p>
          <Button
            variant="secondary"
            size="sm"
            className="mt-3"
            onClick={() => log.refetch()}
            isLoading={log.isFetching}
          >
            Try again
          </Button>
        </Alert>
      ) : null}
      {log.data && entries.length === 0 ? (
        total > 0 ? (
          // An old link can point past the last page.
          <EmptyState title="This page is past the last entry">
            <Button variant="secondary" size="sm" className="mt-2" onClick={() => onPageChange(0)}>
              Go to the first page
            </Button>
          </EmptyState>
        ) : (
          <EmptyState title={hasFilters ? "No entries match these filters" : "Nothing recorded yet"}>
            {hasFilters ? emptyHint.filtered : emptyHint.unfiltered}
          </EmptyState>
        )
      ) : null}
      {entries.length > 0 ? (
        <div
          aria-busy={log.isPlaceholderData || undefined}
          className={log.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}
        >
          <AuditLogTable entries={entries} showOrganization={showOrganization} />
        </div>
      ) : null}
      <Pagination label="Audit log pages" offset={offset} pageSize={limit} total={total} onChange={onPageChange} />
    </>
  );
}

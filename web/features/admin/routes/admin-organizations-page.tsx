import { Link } from "@tanstack/react-router";
import type { SubscriptionStatus } from "../../../../common/billing.schemas";
import { Alert } from "../../../components/ui/alert";
import { Avatar } from "../../../components/ui/avatar";
import { Badge, type BadgeTone } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { EmptyState, PageHeader } from "../../../components/ui/page";
import { PageSizeSelect, Pagination } from "../../../components/ui/pagination";
import { SearchInput } from "../../../components/ui/search-input";
import { LoadingBlock, Spinner } from "../../../components/ui/spinner";
import { MobileLabel, Table } from "../../../components/ui/table";
import { errorMessage } from "../../../lib/api-error";
import type { SearchChange } from "../../../lib/search-change";
import { useSearchText } from "../../../lib/use-search-text";
import { useAdminOrganizations } from "../api/organizations";

export type AdminOrganizationsSearch = { q?: string; limit: number; offset: number };

const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** A subscription's state beside its plan; an organization without one is on the free plan and shows no badge. */
const STATUS: Record<SubscriptionStatus, { label: string; tone: BadgeTone }> = {
  active: { label: "Active", tone: "success" },
  trialing: { label: "Trialing", tone: "info" },
  past_due: { label: "Past due", tone: "danger" },
  unpaid: { label: "Unpaid", tone: "danger" },
  incomplete: { label: "Incomplete", tone: "warning" },
  incomplete_expired: { label: "Expired", tone: "neutral" },
  canceled: { label: "Canceled", tone: "neutral" },
};

/**
 * The console's Organizations tab: every organization with its members, plan and subscription, searchable by name
 * or slug. The search, page and page size live in the URL (the route owns it): `onSearchChange` writes them there.
 */
export function AdminOrganizationsPage({
  search,
  onSearchChange,
}: {
  search: AdminOrganizationsSearch;
  onSearchChange: SearchChange<AdminOrganizationsSearch>;
}) {
  const committed = search.q ?? "";
  // Once typing pauses, the search goes into the URL and starts again at the first page.
  const [text, setText] = useSearchText(search.q, (q) => onSearchChange((current) => ({ ...current, q, offset: 0 })));

  const organizations = useAdminOrganizations(search);
  const total = organizations.data?.total ?? 0;
  const rows = organizations.data?.organizations ?? [];

  return (
    <>
      <PageHeader
        title="Organizations"
        description="Every organization on this Atrium. Open one for its members, teams, billing and audit log."
      />
      <Card>
        <div className="mb-4 flex flex-wrap items-center gap-3">
          <SearchInput
            label="Search organizations"
            value={text}
            placeholder="Search by name or slug"
            onSearch={setText}
          />
          {organizations.isFetching && !organizations.isPending ? <Spinner label="Updating…" /> : null}
          <PageSizeSelect
            value={search.limit}
            onChange={(size) => onSearchChange((current) => ({ ...current, limit: size, offset: 0 }))}
            className="ml-auto"
          />
        </div>
        <p role="status" className="mb-2 text-sm font-medium">
          {organizations.data
            ? `${total.toLocaleString()} ${total === 1 ? "organization" : "organizations"}${committed ? ` match “${committed}”` : ""}`
            : ""}
        </p>
        {organizations.isPending ? <LoadingBlock label="Loading organizations…" /> : null}
        {organizations.isError ? (
          <Alert tone="error" title="The organizations could not load">
            <p>{errorMessage(organizations.error)}</p>
            <Button
              variant="secondary"
              size="sm"
              className="mt-3"
              onClick={() => organizations.refetch()}
              isLoading={organizations.isFetching}
            >
              Try again
            </Button>
          </Alert>
        ) : null}
        {organizations.data && rows.length === 0 ? (
          total > 0 ? (
            // An old link or a shrunk list can point past the last page.
            <EmptyState title="This page is past the last organization">
              <Button
                variant="secondary"
                size="sm"
                className="mt-2"
                onClick={() => onSearchChange((current) => ({ ...current, offset: 0 }))}
              >
                Go to the first page
              </Button>
            </EmptyState>
          ) : (
            <EmptyState title={committed ? "No organizations match" : "No organizations yet"}>
              {committed ? "Try another name or slug." : undefined}
            </EmptyState>
          )
        ) : null}
        {rows.length > 0 ? (
          <div
            aria-busy={organizations.isPlaceholderData || undefined}
            className={organizations.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}
          >
            <Table label="Organizations" columns={["Name", "Slug", "Members", "Plan", "Created"]}>
              {rows.map((organization) => (
                <tr key={organization.id}>
                  <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-1">
                    <div className="flex items-center gap-3">
                      <Avatar name={organization.name} size="sm" />
                      <Link
                        to="/admin/organizations/$organizationId"
                        params={{ organizationId: organization.id }}
                        className="min-w-0 font-medium text-brand-700 hover:underline dark:text-brand-100"
                      >
                        {organization.name}
                      </Link>
                    </div>
                  </td>
                  <td className="py-3 pr-4 text-zinc-600 max-sm:col-start-1 max-sm:row-start-2 max-sm:ml-11 max-sm:text-xs max-sm:break-all dark:text-zinc-400">
                    /{organization.slug}
                  </td>
                  <td className="py-3 pr-4 whitespace-nowrap tabular-nums max-sm:col-start-1 max-sm:row-start-3 max-sm:ml-11">
                    {organization.memberCount}
                    <MobileLabel>{organization.memberCount === 1 ? " member" : " members"}</MobileLabel>
                  </td>
                  <td className="py-3 pr-4 max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right">
                    <span className="inline-flex flex-wrap items-center gap-2 max-sm:justify-end">
                      <span className="whitespace-nowrap">{organization.plan.name}</span>
                      {organization.status ? (
                        <Badge tone={STATUS[organization.status].tone}>{STATUS[organization.status].label}</Badge>
                      ) : null}
                    </span>
                  </td>
                  <td className="py-3 pr-4 whitespace-nowrap max-sm:col-start-2 max-sm:row-start-2 max-sm:text-right max-sm:text-xs max-sm:text-zinc-500 max-sm:dark:text-zinc-400">
                    <MobileLabel>Created </MobileLabel>
                    <time dateTime={organization.createdAt}>{day.format(new Date(organization.createdAt))}</time>
                  </td>
                </tr>
              ))}
            </Table>
          </div>
        ) : null}
        <Pagination
          label="Organization pages"
          offset={search.offset}
          pageSize={search.limit}
          total={total}
          onChange={(offset) => onSearchChange((current) => ({ ...current, offset }))}
        />
      </Card>
    </>
  );
}

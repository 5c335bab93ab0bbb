import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Avatar } from "../../../components/ui/avatar";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { EmptyState, PageHeader } from "../../../components/ui/page";
import { Pagination } from "../../../components/ui/pagination";
import { SearchInput } from "../../../components/ui/search-input";
import { LoadingBlock, Spinner } from "../../../components/ui/spinner";
import { MobileLabel, Table } from "../../../components/ui/table";
import { errorMessage } from "../../../lib/api-error";
import { useDebouncedValue } from "../../../lib/use-debounced-value";
import { useAdminBillingOrganizations } from "../api/admin-billing";
import { formatDate, subscriptionStatusTone, subscriptionStatusWord } from "../components/billing-format";

const PAGE_SIZE = 20;

/** The admin console's Organizations tab: every organization with its plan and subscription status. */
export function AdminOrganizationsPage() {
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const organizations = useAdminBillingOrganizations(useDebouncedValue(search.trim()), offset, PAGE_SIZE);
  const total = organizations.data?.total ?? 0;

  return (
    <>
      <PageHeader
        title="Organizations"
        description="Every organization's plan and subscription. Open one to see its payments, refund one, or sync it with the payment provider."
      />
      <Card>
        <div className="mb-4 flex flex-wrap items-center gap-3">
          <SearchInput
            label="Search organizations"
            value={search}
            placeholder="Search by name or slug"
            onSearch={(value) => {
              setSearch(value);
              setOffset(0);
            }}
          />
          {organizations.isFetching && !organizations.isPending ? <Spinner label="Updating…" /> : null}
        </div>
        {organizations.isPending ? <LoadingBlock label="Loading organizations…" /> : null}
        {organizations.isError ? (
          <Alert tone="error" title="The organizations could not load">
            <p>{errorMessage(organizations.error)}</p>
            <Button variant="secondary" size="sm" className="mt-3" onClick={() => organizations.refetch()} isLoading={organizations.isFetching}>
              Try again
            </Button>
          </Alert>
        ) : null}
        {organizations.data?.organizations.length === 0 ? (
          <EmptyState title={search.trim() ? "No organizations match" : "No organizations yet"}>
            {search.trim() ? "Try another name or slug." : undefined}
          </EmptyState>
        ) : null}
        {organizations.data && organizations.data.organizations.length > 0 ? (
          <Table stacked label="Organizations" columns={["Organization", "Plan", "Status", "Created", ""]}>
            {organizations.data.organizations.map((organization) => (
              <tr key={organization.id}>
                <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-1">
                  <div className="flex items-center gap-3">
                    <Avatar name={organization.name} size="sm" />
                    <div className="min-w-0">
                      <p className="font-medium break-words">{organization.name}</p>
                      <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">/{organization.slug}</p>
                    </div>
                  </div>
                </td>
                <td className="py-3 pr-4 whitespace-nowrap max-sm:col-start-1 max-sm:row-start-2 max-sm:ml-11">
                  {organization.plan.name}
                  <MobileLabel> plan</MobileLabel>
                </td>
                <td className="py-3 pr-4 max-sm:col-start-2 max-sm:row-start-2 max-sm:text-right">
                  <Badge tone={subscriptionStatusTone(organization.status)}>{subscriptionStatusWord(organization.status)}</Badge>
                </td>
                <td className="py-3 pr-4 whitespace-nowrap max-sm:col-start-1 max-sm:row-start-3 max-sm:ml-11 max-sm:text-zinc-500 max-sm:dark:text-zinc-400">
                  <MobileLabel>Created </MobileLabel>
                  {formatDate(organization.createdAt)}
                </td>
                <td className="py-3 text-right max-sm:col-start-2 max-sm:row-start-1 max-sm:self-center">
                  <Link
                    to="/admin/organizations/$organizationId"
                    params={{ organizationId: organization.id }}
                    aria-label={`Billing of ${organization.name}`}
                    className="inline-block rounded-lg border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium whitespace-nowrap hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800"
                  >
                    Billing
                  </Link>
                </td>
              </tr>
            ))}
          </Table>
        ) : null}
        <Pagination label="Organization pages" offset={offset} pageSize={PAGE_SIZE} total={total} onChange={setOffset} />
      </Card>
    </>
  );
}

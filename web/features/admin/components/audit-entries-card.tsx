import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { AuditLogTable } from "../../../components/audit-log-table";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { EmptyState } from "../../../components/ui/page";
import { Pagination } from "../../../components/ui/pagination";
import { LoadingBlock } from "../../../components/ui/spinner";
import { errorMessage } from "../../../lib/api-error";
import { useAdminAuditLog } from "../api/audit-log";

const PAGE_SIZE = 10;

/**
 * The newest entries about one user (`targetId`) or one organization (`organizationId`), on their page in the
 * console, with the way to the whole log filtered the same way.
 */
export function AuditEntriesCard({ filter }: { filter: { targetId?: string; organizationId?: string } }) {
  const [offset, setOffset] = useState(0);
  const log = useAdminAuditLog({ ...filter, limit: PAGE_SIZE, offset });
  const entries = log.data?.entries ?? [];

  return (
    <Card>
      <CardHeader
        title="Audit log"
        description={
          filter.organizationId
            ? "What was changed in this organization, newest first."
            : "What was done to this account, newest first."
        }
        action={
          <Link
            to="/admin/audit-log"
            search={filter}
            className="text-sm font-medium text-brand-600 hover:underline dark:text-brand-400"
          >
            Open in the audit log
          </Link>
        }
      />
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
      {log.isSuccess && log.data.total === 0 ? <EmptyState title="Nothing recorded yet" /> : null}
      {entries.length > 0 ? (
        <div
          aria-busy={log.isPlaceholderData || undefined}
          className={log.isPlaceholderData ? "opacity-60 transition-opacity" : undefined}
        >
          {/* A user's entries may concern several organizations; an organization's are all its own. */}
          <AuditLogTable entries={entries} showOrganization={!filter.organizationId} />
        </div>
      ) : null}
      <Pagination
        label="Audit log pages"
        offset={offset}
        pageSize={PAGE_SIZE}
        total={log.data?.total ?? 0}
        onChange={setOffset}
      />
    </Card>
  );
}

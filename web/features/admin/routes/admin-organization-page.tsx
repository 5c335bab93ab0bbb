import { Link } from "@tanstack/react-router";
import { useRef, useState, type ReactNode } from "react";
import type { AdminOrganizationDetail } from "../../../../common/admin.schemas";
import { Alert } from "../../../components/ui/alert";
import { Avatar } from "../../../components/ui/avatar";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { EmptyState } from "../../../components/ui/page";
import { Skeleton, SkeletonGroup } from "../../../components/ui/skeleton";
import { MobileLabel, Table } from "../../../components/ui/table";
import { ApiError, errorMessage } from "../../../lib/api-error";
import { formatDateTime, formatRelative } from "../../../lib/format";
import { useAdminOrganization } from "../api/organizations";
import { AssignOwnerDialog } from "../components/assign-owner-dialog";
import { AuditEntriesCard } from "../components/audit-entries-card";

const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

function When({ value }: { value: string }) {
  return <time dateTime={value}>{day.format(new Date(value))}</time>;
}

/** An organization role ("admin,owner" holds two) as badges; owners stand out. */
function Roles({ role }: { role: string }) {
  return (
    <span className="inline-flex flex-wrap gap-1">
      {role.split(",").map((name) => (
        <Badge
          key={name}
          tone={name.trim() === "owner" ? "brand" : name.trim() === "admin" ? "info" : "neutral"}
          className="capitalize"
        >
          {name.trim()}
        </Badge>
      ))}
    </span>
  );
}

const backLink = (
  <Link
    to="/admin/organizations"
    className="mb-4 inline-block text-sm font-medium text-brand-600 hover:underline dark:text-brand-400"
  >
    ← All organizations
  </Link>
);

const isOwner = (role: string) => role.split(",").some((name) => name.trim() === "owner");

function Members({ members, action }: { members: AdminOrganizationDetail["members"]; action: ReactNode }) {
  return (
    <Card>
      <CardHeader
        title="Members"
        description={members.length === 1 ? "1 member" : `${members.length} members`}
        action={action}
      />
      {members.length === 0 ? (
        <EmptyState title="No members" />
      ) : (
        <Table label="Members" columns={["Member", "Role", "Joined"]}>
          {members.map((member) => (
            <tr key={member.id}>
              <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-1">
                <div className="flex items-center gap-3">
                  <Avatar name={member.name} size="sm" />
                  <div className="min-w-0">
                    <p className="font-medium">{member.name}</p>
                    <Link
                      to="/admin/users/$userId"
                      params={{ userId: member.userId }}
                      className="text-xs break-all text-brand-700 hover:underline dark:text-brand-100"
                    >
                      {member.email}
                    </Link>
                  </div>
                </div>
              </td>
              <td className="py-3 pr-4 max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right">
                <Roles role={member.role} />
              </td>
              <td className="py-3 pr-4 whitespace-nowrap max-sm:col-span-2 max-sm:ml-11 max-sm:text-xs max-sm:text-zinc-500 max-sm:dark:text-zinc-400">
                <MobileLabel>Joined </MobileLabel>
                <When value={member.joinedAt} />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}

function Teams({ teams }: { teams: AdminOrganizationDetail["teams"] }) {
  return (
    <Card>
      <CardHeader title="Teams" />
      {teams.length === 0 ? (
        <EmptyState title="No teams" />
      ) : (
        <ul className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
          {teams.map((team) => (
            <li key={team.id} className="flex items-baseline justify-between gap-4 py-3">
              <span className="min-w-0 font-medium">{team.name}</span>
              <span className="shrink-0 text-zinc-500 tabular-nums dark:text-zinc-400">
                {team.memberCount === 1 ? "1 member" : `${team.memberCount} members`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Invitations({ invitations }: { invitations: AdminOrganizationDetail["invitations"] }) {
  return (
    <Card>
      <CardHeader title="Pending invitations" />
      {invitations.length === 0 ? (
        <EmptyState title="No pending invitations" />
      ) : (
        <Table label="Pending invitations" columns={["E-mail", "Role", "Invited by", "Expires"]}>
          {invitations.map((invitation) => {
            const isExpired = new Date(invitation.expiresAt).getTime() < Date.now();
            return (
              <tr key={invitation.id}>
                <td className="py-3 pr-4 font-medium break-all max-sm:col-start-1 max-sm:row-start-1">
                  {invitation.email}
                </td>
                <td className="py-3 pr-4 max-sm:col-start-2 max-sm:row-start-1 max-sm:text-right">
                  <Roles role={invitation.role} />
                </td>
                <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-2 max-sm:text-xs max-sm:text-zinc-500 max-sm:dark:text-zinc-400">
                  <MobileLabel>Invited by </MobileLabel>
                  {invitation.inviter?.name ?? "Someone no longer here"}
                </td>
                <td
                  className={
                    isExpired
                      ? "py-3 pr-4 whitespace-nowrap text-red-600 max-sm:col-start-2 max-sm:row-start-2 max-sm:text-right max-sm:text-xs dark:text-red-400"
                      : "py-3 pr-4 whitespace-nowrap max-sm:col-start-2 max-sm:row-start-2 max-sm:text-right max-sm:text-xs max-sm:text-zinc-500 max-sm:dark:text-zinc-400"
                  }
                >
                  <time dateTime={invitation.expiresAt} title={formatDateTime(invitation.expiresAt)}>
                    {isExpired ? "Expired" : "Expires"} {formatRelative(invitation.expiresAt)}
                  </time>
                </td>
              </tr>
            );
          })}
        </Table>
      )}
    </Card>
  );
}

function OrganizationSkeleton() {
  return (
    <SkeletonGroup label="Loading organization" className="space-y-6">
      <div className="mb-8 flex items-center gap-4">
        <Skeleton className="size-16 rounded-full" />
        <div>
          <Skeleton className="h-8 w-56 max-w-full" />
          <Skeleton className="mt-2 h-4 w-40" />
        </div>
      </div>
      <Card>
        <Skeleton className="h-5 w-28" />
        <div className="mt-5 space-y-3">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      </Card>
    </SkeletonGroup>
  );
}

/**
 * One organization in the console: who is in it, its teams and pending invitations, its billing (`billing`, the
 * billing feature's panel that web/app passes in) and what its audit log recorded.
 */
export function AdminOrganizationPage({ organizationId, billing }: { organizationId: string; billing: ReactNode }) {
  const detail = useAdminOrganization(organizationId);
  const [isAssigning, setAssigning] = useState(false);
  // The dialog's reason field takes focus as it opens, so the opener is handed over for the return.
  const assignButton = useRef<HTMLButtonElement>(null);

  if (detail.isPending) {
    return (
      <>
        {backLink}
        <OrganizationSkeleton />
      </>
    );
  }
  if (detail.isError) {
    const isGone = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <>
        {backLink}
        {isGone ? (
          <EmptyState title="This organization does not exist (any more)">
            It may have been deleted. Its audit log entries stay in the{" "}
            <Link
              to="/admin/audit-log"
              search={{ organizationId }}
              className="font-medium text-brand-600 hover:underline dark:text-brand-400"
            >
              audit log
            </Link>
            .{" "}
            <Link to="/admin/organizations" className="font-medium text-brand-600 hover:underline dark:text-brand-400">
              Back to all organizations
            </Link>
          </EmptyState>
        ) : (
          <Alert tone="error" title="This organization could not load">
            <p>{errorMessage(detail.error)}</p>
            <Button
              variant="secondary"
              size="sm"
              className="mt-3"
              onClick={() => detail.refetch()}
              isLoading={detail.isFetching}
            >
              Try again
            </Button>
          </Alert>
        )}
      </>
    );
  }

  const { organization, members, teams, invitations } = detail.data;
  return (
    <>
      {backLink}
      <div className="mb-8 flex items-center gap-4">
        <Avatar name={organization.name} image={organization.logo} size="lg" />
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">{organization.name}</h1>
          <p className="mt-1 flex flex-wrap gap-x-2 gap-y-1 text-sm text-zinc-500 dark:text-zinc-400">
            <span className="break-all">/{organization.slug}</span>
            <span aria-hidden="true">·</span>
            <span className="whitespace-nowrap">
              Created <When value={organization.createdAt} />
            </span>
          </p>
        </div>
      </div>
      <div className="space-y-6">
        {members.some((member) => isOwner(member.role)) ? null : (
          <Alert tone="info" title="This organization has no owner">
            <p>Nobody can manage its members, billing or settings. Give it a new owner to hand it back.</p>
          </Alert>
        )}
        <Members
          members={members}
          action={
            <Button ref={assignButton} variant="secondary" size="sm" onClick={() => setAssigning(true)}>
              Give a new owner
            </Button>
          }
        />
        <AssignOwnerDialog
          organizationId={organizationId}
          organizationName={organization.name}
          open={isAssigning}
          onOpenChange={setAssigning}
          fallbackFocus={assignButton}
        />
        <Teams teams={teams} />
        <Invitations invitations={invitations} />
        <section aria-labelledby="organization-billing" className="space-y-4">
          <h2 id="organization-billing" className="pt-4 text-lg font-semibold tracking-tight">
            Billing
          </h2>
          {billing}
        </section>
        <AuditEntriesCard filter={{ organizationId }} />
      </div>
    </>
  );
}

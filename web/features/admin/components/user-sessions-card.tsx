import { Link } from "@tanstack/react-router";
import { useRef, useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { ConfirmDialog } from "../../../components/ui/dialog";
import { Card, CardHeader } from "../../../components/ui/card";
import { EmptyState } from "../../../components/ui/page";
import { LoadingBlock } from "../../../components/ui/spinner";
import { MobileLabel, Table } from "../../../components/ui/table";
import { errorMessage } from "../../../lib/api-error";
import { describeDevice } from "../../../lib/device";
import { formatDateTime, formatRelative } from "../../../lib/format";
import { useAdminUserSessions, useRevokeUserSession, useRevokeUserSessions, type AdminUserSession } from "../api/admin";

function deviceOf(session: AdminUserSession): string {
  return `${describeDevice(session.userAgent)}${session.ipAddress ? ` (${session.ipAddress})` : ""}`;
}

/**
 * Where a user is signed in, most recent activity first, with a way to end any one session or all of them. On the
 * admin's own page the list is read-only: ending their own sessions is what Account settings › Sessions is for.
 */
export function UserSessionsCard({
  user,
  isSelf,
  currentSessionId,
}: {
  user: { id: string; name: string };
  isSelf: boolean;
  currentSessionId: string;
}) {
  const sessions = useAdminUserSessions(user.id);
  const revoke = useRevokeUserSession();
  const revokeAll = useRevokeUserSessions(user);
  const [revoking, setRevoking] = useState<AdminUserSession | null>(null);
  const [isConfirmingAll, setConfirmingAll] = useState(false);
  const ordered = [...(sessions.data ?? [])].sort(
    (a, b) => new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime(),
  );
  const count = ordered.length;
  // Where focus goes once the revoked session's row (and the Revoke button in it) is gone.
  const titleRef = useRef<HTMLHeadingElement>(null);

  return (
    <Card>
      <CardHeader
        title="Sessions"
        titleRef={titleRef}
        description={
          isSelf ? (
            <>
              Your own sessions are managed in{" "}
              <Link to="/account/sessions" className="font-medium text-brand-600 hover:underline dark:text-brand-400">
                Account settings › Sessions
              </Link>
              .
            </>
          ) : (
            "Every browser and device signed in to this account. Revoking one signs it out at once."
          )
        }
        action={
          !isSelf && count > 0 ? (
            <Button variant="secondary" size="sm" onClick={() => setConfirmingAll(true)}>
              Revoke all
            </Button>
          ) : null
        }
      />
      {sessions.isPending ? <LoadingBlock label="Loading sessions…" /> : null}
      {sessions.isError ? (
        <Alert tone="error" title="The sessions could not load">
          <p>{errorMessage(sessions.error)}</p>
          <Button
            variant="secondary"
            size="sm"
            className="mt-3"
            isLoading={sessions.isFetching}
            onClick={() => void sessions.refetch()}
          >
            Try again
          </Button>
        </Alert>
      ) : null}
      {sessions.data && count === 0 ? <EmptyState title="Not signed in anywhere" /> : null}
      {count > 0 ? (
        <Table
          label={`Sessions of ${user.name}`}
          columns={["Device", "IP address", "Signed in", "Last active", "Expires", ""]}
        >
          {ordered.map((session) => (
            <tr key={session.id}>
              <td className="py-3 pr-4 max-sm:col-start-1 max-sm:row-start-1">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="font-medium">{describeDevice(session.userAgent)}</span>
                  {session.impersonatedBy ? <Badge tone="warning">Impersonation</Badge> : null}
                  {session.id === currentSessionId ? <Badge tone="success">This device</Badge> : null}
                </div>
              </td>
              <td className="py-3 pr-4 font-mono text-xs whitespace-nowrap max-sm:col-span-2 max-sm:row-start-2">
                <MobileLabel>IP address: </MobileLabel>
                {session.ipAddress || "—"}
              </td>
              <td className="py-3 pr-4 whitespace-nowrap max-sm:col-span-2 max-sm:row-start-3">
                <MobileLabel>Signed in </MobileLabel>
                {formatDateTime(session.createdAt)}
              </td>
              <td
                className="py-3 pr-4 whitespace-nowrap max-sm:col-span-2 max-sm:row-start-4"
                title={formatDateTime(session.updatedAt)}
              >
                <MobileLabel>Last active </MobileLabel>
                {formatRelative(session.updatedAt)}
              </td>
              <td className="py-3 pr-4 whitespace-nowrap max-sm:col-span-2 max-sm:row-start-5">
                <MobileLabel>Expires </MobileLabel>
                {formatDateTime(session.expiresAt)}
              </td>
              <td className="py-3 text-right max-sm:col-start-2 max-sm:row-start-1 max-sm:self-center">
                {isSelf ? null : (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Revoke ${deviceOf(session)}`}
                    isLoading={revoke.isPending && revoke.variables === session.token}
                    onClick={() => setRevoking(session)}
                  >
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this session?"
        description={revoking ? `${deviceOf(revoking)} is signed out of ${user.name}'s account at once.` : ""}
        confirmLabel="Revoke session"
        onConfirm={() => (revoking ? revoke.mutateAsync(revoking.token) : Promise.resolve())}
        fallbackFocus={titleRef}
      />
      <ConfirmDialog
        open={isConfirmingAll}
        onOpenChange={setConfirmingAll}
        title={`Revoke every session of ${user.name}?`}
        description={`${count} session${count === 1 ? "" : "s"} ${count === 1 ? "is" : "are"} signed out at once. ${user.name} can sign in again.`}
        confirmLabel="Revoke all"
        onConfirm={() => revokeAll.mutateAsync()}
        fallbackFocus={titleRef}
      />
    </Card>
  );
}

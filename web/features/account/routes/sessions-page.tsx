import { useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { MobileLabel, Table } from "../../../components/ui/table";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { EmptyState } from "../../../components/ui/page";
import { LoadingBlock } from "../../../components/ui/spinner";
import { errorMessage } from "../../../lib/api-error";
import { describeDevice } from "../../../lib/device";
import { formatDateTime, formatRelative } from "../../../lib/format";
import { useRevokeOtherSessions, useRevokeSession, useSessions } from "../api/sessions";

export function SessionsPage({ currentSessionId }: { currentSessionId: string }) {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [confirmAll, setConfirmAll] = useState(false);
  const others = (sessions.data ?? []).filter((session) => session.id !== currentSessionId);
  const ordered = [...(sessions.data ?? [])].sort((a, b) =>
    a.id === currentSessionId
      ? -1
      : b.id === currentSessionId
        ? 1
        : new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime(),
  );

  return (
    <Card>
      <CardHeader
        title="Sessions"
        description="Every browser and device signed in to your account. Sign out the ones you do not recognise."
        action={
          others.length > 0 ? (
            <Button variant="secondary" size="sm" onClick={() => setConfirmAll(true)}>
              Sign out all other sessions
            </Button>
          ) : null
        }
      />
      {sessions.isPending ? <LoadingBlock label="Loading sessions…" /> : null}
      {sessions.isError ? <Alert tone="error">{errorMessage(sessions.error)}</Alert> : null}
      {sessions.data && sessions.data.length === 0 ? <EmptyState title="No active sessions" /> : null}
      {sessions.data && sessions.data.length > 0 ? (
        <Table columns={["Device", "IP address", "Signed in", "Last active", ""]}>
          {ordered.map((session) => {
            const isCurrent = session.id === currentSessionId;
            return (
              <tr key={session.id}>
                <td className="py-3 pr-4">
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="font-medium">{describeDevice(session.userAgent)}</span>
                    {isCurrent ? (
                      <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-emerald-700 dark:bg-emerald-900/50 dark:text-emerald-300">
                        This device
                      </span>
                    ) : null}
                  </div>
                </td>
                <td className="py-3 pr-4 font-mono text-xs whitespace-nowrap">{session.ipAddress || "—"}</td>
                <td className="py-3 pr-4 whitespace-nowrap">
                  <MobileLabel>Signed in </MobileLabel>
                  {formatDateTime(session.createdAt)}
                </td>
                <td className="py-3 pr-4 whitespace-nowrap" title={formatDateTime(session.updatedAt)}>
                  <MobileLabel>Last active </MobileLabel>
                  {formatRelative(session.updatedAt)}
                </td>
                <td className="py-3 text-right">
                  {isCurrent ? null : (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Sign out ${describeDevice(session.userAgent)} (${session.ipAddress || "unknown IP"})`}
                      isLoading={revoke.isPending && revoke.variables === session.token}
                      onClick={() => revoke.mutate(session.token)}
                    >
                      Sign out
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </Table>
      ) : null}
      <Dialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title="Sign out all other sessions?"
        description={`${others.length} other session${others.length === 1 ? "" : "s"} will be signed out. This device stays signed in.`}
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirmAll(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            isLoading={revokeOthers.isPending}
            onClick={() => revokeOthers.mutate(undefined, { onSuccess: () => setConfirmAll(false) })}
          >
            Sign out others
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}

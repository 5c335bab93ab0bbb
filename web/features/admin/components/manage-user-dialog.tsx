import { useNavigate } from "@tanstack/react-router";
import { useState, type FormEvent, type ReactNode } from "react";
import { passwordSchema } from "../../../../common/account.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { ConfirmDialog, Dialog } from "../../../components/ui/dialog";
import { LoadingBlock } from "../../../components/ui/spinner";
import { SelectField, TextField } from "../../../components/ui/text-field";
import { useToast } from "../../../components/ui/toast";
import { errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { formatDateTime, formatRelative } from "../../../lib/format";
import { describeDevice } from "../../account/api/sessions";
import { useRefreshSession } from "../../auth/api/session";
import { useAdminAction, useUserSessions, type AdminUser } from "../api/admin";

const BAN_DURATIONS = [
  { label: "1 day", seconds: 86_400 },
  { label: "7 days", seconds: 604_800 },
  { label: "30 days", seconds: 2_592_000 },
  { label: "Until lifted", seconds: 0 },
] as const;

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="border-t border-zinc-200 py-5 first:border-t-0 first:pt-0 dark:border-zinc-800">
      <h3 className="text-sm font-semibold">{title}</h3>
      {description ? <p className="mt-1 text-sm text-zinc-500 dark:text-zinc-400">{description}</p> : null}
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** Every platform-admin action on one user: role, password, ban, sessions, impersonation, deletion. */
export function ManageUserDialog({ user, isSelf, onClose }: { user: AdminUser; isSelf: boolean; onClose: () => void }) {
  const toast = useToast();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const sessions = useUserSessions(user.id);
  const [role, setRole] = useState(user.role ?? "user");
  const [password, setPassword] = useState("");
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [banReason, setBanReason] = useState("");
  const [banSeconds, setBanSeconds] = useState<number>(BAN_DURATIONS[1].seconds);
  const [isConfirmingDelete, setConfirmingDelete] = useState(false);

  const notify = (message: string) => ({ onSuccess: () => toast.success(message), onError: (error: unknown) => toast.error(errorMessage(error)) });
  const setRoleAction = useAdminAction(async (next: string) => unwrap(await authClient.admin.setRole({ userId: user.id, role: next as "admin" | "user" })));
  const setPasswordAction = useAdminAction(async (newPassword: string) => unwrap(await authClient.admin.setUserPassword({ userId: user.id, newPassword })));
  const banAction = useAdminAction(async () =>
    unwrap(await authClient.admin.banUser({ userId: user.id, banReason: banReason.trim() || undefined, ...(banSeconds ? { banExpiresIn: banSeconds } : {}) })),
  );
  const unbanAction = useAdminAction(async () => unwrap(await authClient.admin.unbanUser({ userId: user.id })));
  const revokeAction = useAdminAction(async (sessionToken: string) => unwrap(await authClient.admin.revokeUserSession({ sessionToken })));
  const revokeAllAction = useAdminAction(async () => unwrap(await authClient.admin.revokeUserSessions({ userId: user.id })));
  const removeAction = useAdminAction(async () => unwrap(await authClient.admin.removeUser({ userId: user.id })));

  function submitPassword(event: FormEvent) {
    event.preventDefault();
    const result = passwordSchema.safeParse(password);
    if (!result.success) {
      setPasswordError(result.error.issues[0]?.message);
      return;
    }
    setPasswordError(undefined);
    setPasswordAction.mutate(password, { ...notify(`New password set for ${user.name}`), onSettled: () => setPassword("") });
  }

  async function impersonate() {
    try {
      unwrap(await authClient.admin.impersonateUser({ userId: user.id }));
      await refreshSession({ clearEverything: true });
      await navigate({ to: "/" });
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={user.name}
      description={`${user.email}${user.username ? ` · @${user.username}` : ""}`}
      size="lg"
    >
      <Section title="Platform role" description="Admins can manage every user and session.">
        <form
          className="flex items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            setRoleAction.mutate(role, notify(`${user.name} is now ${role}`));
          }}
        >
          <SelectField label="Role" className="w-48" value={role} onChange={(event) => setRole(event.target.value)} disabled={isSelf}>
            <option value="user">user</option>
            <option value="admin">admin</option>
          </SelectField>
          <Button type="submit" variant="secondary" isLoading={setRoleAction.isPending} disabled={isSelf || role === (user.role ?? "user")}>
            Save role
          </Button>
        </form>
        {isSelf ? <p className="mt-2 text-xs text-zinc-500">You cannot change your own role.</p> : null}
      </Section>

      <Section title="Password" description="Sets a new password; tell the person through a channel you trust.">
        <form className="flex items-start gap-2" onSubmit={submitPassword} noValidate>
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            className="flex-1"
            value={password}
            error={passwordError}
            onChange={(event) => setPassword(event.target.value)}
          />
          <Button type="submit" variant="secondary" className="mt-6.5" isLoading={setPasswordAction.isPending}>
            Set password
          </Button>
        </form>
      </Section>

      <Section title="Ban" description={user.banned ? undefined : "A banned user cannot sign in, and their sessions end."}>
        {user.banned ? (
          <div className="space-y-3">
            <Alert tone="error" title="Banned">
              {user.banReason || "No reason given"}
              {user.banExpires ? ` · until ${formatDateTime(user.banExpires)}` : " · until lifted"}
            </Alert>
            <Button
              variant="secondary"
              isLoading={unbanAction.isPending}
              onClick={() => unbanAction.mutate(undefined, notify(`${user.name} can sign in again`))}
            >
              Lift ban
            </Button>
          </div>
        ) : (
          <form
            className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end"
            onSubmit={(event) => {
              event.preventDefault();
              banAction.mutate(undefined, notify(`${user.name} is banned`));
            }}
          >
            <TextField label="Reason (optional)" value={banReason} onChange={(event) => setBanReason(event.target.value)} />
            <SelectField label="Duration" value={String(banSeconds)} onChange={(event) => setBanSeconds(Number(event.target.value))}>
              {BAN_DURATIONS.map((duration) => (
                <option key={duration.seconds} value={duration.seconds}>
                  {duration.label}
                </option>
              ))}
            </SelectField>
            <Button type="submit" variant="danger" isLoading={banAction.isPending} disabled={isSelf}>
              Ban user
            </Button>
          </form>
        )}
      </Section>

      <Section title="Sessions">
        {sessions.isPending ? <LoadingBlock label="Loading sessions…" /> : null}
        {sessions.isError ? <Alert tone="error">{errorMessage(sessions.error)}</Alert> : null}
        {sessions.data?.length === 0 ? <p className="text-sm text-zinc-500 dark:text-zinc-400">No active sessions.</p> : null}
        {sessions.data && sessions.data.length > 0 ? (
          <>
            <ul aria-label={`Sessions of ${user.name}`} className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {sessions.data.map((session) => (
                <li key={session.id} className="flex items-center justify-between gap-3 py-2 text-sm">
                  <div>
                    <p className="font-medium">
                      {describeDevice(session.userAgent)} {session.impersonatedBy ? <span className="text-xs text-amber-600">(impersonation)</span> : null}
                    </p>
                    <p className="text-xs text-zinc-500 dark:text-zinc-400">
                      {session.ipAddress || "unknown IP"} · active {formatRelative(session.updatedAt)}
                    </p>
                  </div>
                  <Button
                    variant="ghost"
                    size="sm"
                    isLoading={revokeAction.isPending && revokeAction.variables === session.token}
                    onClick={() => revokeAction.mutate(session.token, notify("Session revoked"))}
                  >
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
            <Button
              variant="secondary"
              size="sm"
              className="mt-3"
              isLoading={revokeAllAction.isPending}
              onClick={() => revokeAllAction.mutate(undefined, notify(`Every session of ${user.name} was revoked`))}
            >
              Revoke all sessions
            </Button>
          </>
        ) : null}
      </Section>

      <Section title="Impersonate" description="Browse as this user for up to an hour to see what they see. A banner lets you stop.">
        <Button variant="secondary" onClick={impersonate} disabled={isSelf || user.role === "admin"}>
          Impersonate {user.name}
        </Button>
        {user.role === "admin" ? <p className="mt-2 text-xs text-zinc-500">Admins cannot be impersonated.</p> : null}
      </Section>

      <Section title="Delete user" description="Deletes the account, its sessions and memberships. It cannot be undone.">
        <Button variant="danger" onClick={() => setConfirmingDelete(true)} disabled={isSelf}>
          Delete {user.name}
        </Button>
      </Section>
      <ConfirmDialog
        open={isConfirmingDelete}
        onOpenChange={setConfirmingDelete}
        title={`Delete ${user.name}?`}
        description={`${user.email} and everything tied to the account will be deleted.`}
        confirmLabel="Delete user"
        onConfirm={async () => {
          await removeAction.mutateAsync(undefined, notify(`${user.name} was deleted`));
          onClose();
        }}
      />
    </Dialog>
  );
}

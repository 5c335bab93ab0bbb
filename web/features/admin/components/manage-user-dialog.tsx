import { useState, type ReactNode } from "react";
import { z } from "zod";
import { banDurationSchema, passwordSchema, platformRoleSchema, textSchema } from "../../../../common/account.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { ConfirmDialog, Dialog } from "../../../components/ui/dialog";
import { LoadingBlock } from "../../../components/ui/spinner";
import { SelectField, TextField } from "../../../components/ui/text-field";
import { errorMessage } from "../../../lib/api-error";
import { describeDevice } from "../../../lib/device";
import { formatDateTime, formatRelative } from "../../../lib/format";
import { useZodForm } from "../../../lib/form";
import {
  useBanUser,
  useImpersonateUser,
  useRemoveUser,
  useRevokeUserSession,
  useRevokeUserSessions,
  useSetUserPassword,
  useSetUserRole,
  useUnbanUser,
  useUserSessions,
  type AdminUser,
} from "../api/admin";

const BAN_DURATIONS = [
  { label: "1 day", seconds: 86_400 },
  { label: "7 days", seconds: 604_800 },
  { label: "30 days", seconds: 2_592_000 },
  { label: "Until lifted", seconds: 0 },
] as const;

const roleSchema = z.object({ role: platformRoleSchema });
const setPasswordSchema = z.object({ newPassword: passwordSchema });
const banSchema = z.object({ banReason: textSchema, banSeconds: z.coerce.number<string>().pipe(banDurationSchema) });

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
  const sessions = useUserSessions(user.id);
  const currentRole = platformRoleSchema.safeParse(user.role ?? "user").data ?? "user";
  const [isConfirmingDelete, setConfirmingDelete] = useState(false);
  const setRole = useSetUserRole(user);
  const setPassword = useSetUserPassword(user);
  const ban = useBanUser(user);
  const unban = useUnbanUser(user);
  const revokeSession = useRevokeUserSession();
  const revokeSessions = useRevokeUserSessions(user);
  const remove = useRemoveUser(user);
  const impersonate = useImpersonateUser();

  // Errors of these forms come back as toasts (the mutations' default), so the forms only validate.
  const roleForm = useZodForm(roleSchema, { defaultValues: { role: currentRole } });
  const passwordForm = useZodForm(setPasswordSchema, { defaultValues: { newPassword: "" } });
  const banForm = useZodForm(banSchema, { defaultValues: { banReason: "", banSeconds: String(BAN_DURATIONS[1].seconds) } });
  const onSaveRole = roleForm.submit((values) => setRole.mutate(values));
  const onSetPassword = passwordForm.submit((values) => setPassword.mutate(values, { onSettled: () => passwordForm.reset() }));
  const onBan = banForm.submit((values) => ban.mutate(values));

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={user.name}
      description={`${user.email}${user.username ? ` · @${user.username}` : ""}`}
      size="lg"
    >
      <Section title="Platform role" description="Admins can manage every user and session.">
        <form className="flex items-end gap-2" onSubmit={onSaveRole}>
          <SelectField label="Role" className="w-48" {...roleForm.field("role")} disabled={isSelf}>
            <option value="user">user</option>
            <option value="admin">admin</option>
          </SelectField>
          <Button type="submit" variant="secondary" isLoading={setRole.isPending} disabled={isSelf || roleForm.watch("role") === (user.role ?? "user")}>
            Save role
          </Button>
        </form>
        {isSelf ? <p className="mt-2 text-xs text-zinc-500">You cannot change your own role.</p> : null}
      </Section>

      <Section title="Password" description="Sets a new password; tell the person through a channel you trust.">
        <form className="flex items-start gap-2" onSubmit={onSetPassword} noValidate>
          <TextField label="New password" type="password" autoComplete="new-password" className="flex-1" {...passwordForm.field("newPassword")} />
          <Button type="submit" variant="secondary" className="mt-6.5" isLoading={setPassword.isPending}>
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
            <Button variant="secondary" isLoading={unban.isPending} onClick={() => unban.mutate()}>
              Lift ban
            </Button>
          </div>
        ) : (
          <form className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end" onSubmit={onBan} noValidate>
            <TextField label="Reason (optional)" {...banForm.field("banReason")} />
            <SelectField label="Duration" {...banForm.field("banSeconds")}>
              {BAN_DURATIONS.map((duration) => (
                <option key={duration.seconds} value={duration.seconds}>
                  {duration.label}
                </option>
              ))}
            </SelectField>
            <Button type="submit" variant="danger" isLoading={ban.isPending} disabled={isSelf}>
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
                    isLoading={revokeSession.isPending && revokeSession.variables === session.token}
                    onClick={() => revokeSession.mutate(session.token)}
                  >
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
            <Button variant="secondary" size="sm" className="mt-3" isLoading={revokeSessions.isPending} onClick={() => revokeSessions.mutate()}>
              Revoke all sessions
            </Button>
          </>
        ) : null}
      </Section>

      <Section title="Impersonate" description="Browse as this user for up to an hour to see what they see. A banner lets you stop.">
        <Button variant="secondary" onClick={() => impersonate.mutate(user.id)} isLoading={impersonate.isPending} disabled={isSelf || user.role === "admin"}>
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
          await remove.mutateAsync();
          onClose();
        }}
      />
    </Dialog>
  );
}

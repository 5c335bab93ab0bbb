import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { errorMessage, soleOwnerOrganizations } from "../../../lib/api-error";
import { useRemoveUser } from "../api/admin";
import type { UserDialogProps } from "./user-dialog";

type DeleteUser = { id: string; name: string; email: string };

function DeleteForm({ user, onCancel }: { user: DeleteUser; onCancel: () => void }) {
  const remove = useRemoveUser(user);
  const [typed, setTyped] = useState("");
  const inputId = useId();
  // E-mail addresses are stored in lowercase; what is typed may differ in case and surrounding spaces.
  const isConfirmed = typed.trim().toLowerCase() === user.email.toLowerCase();
  const ownedAlone = soleOwnerOrganizations(remove.error) ?? [];

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (isConfirmed) remove.mutate();
      }}
    >
      {remove.isError ? (
        <Alert tone="error">
          <p>{errorMessage(remove.error)}</p>
          {ownedAlone.length > 0 ? (
            <ul className="mt-2 list-disc space-y-1 pl-5" aria-label="Organizations they own alone">
              {ownedAlone.map((organization) => (
                <li key={organization.id}>
                  <Link
                    to="/admin/organizations/$organizationId"
                    params={{ organizationId: organization.id }}
                    className="font-medium underline"
                  >
                    {organization.name}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
      <div className="space-y-1.5">
        <label htmlFor={inputId} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Type <span className="font-mono break-all">{user.email}</span> to confirm
        </label>
        <input
          id={inputId}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          autoFocus
          className="block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        />
      </div>
      <DialogActions onCancel={onCancel}>
        <Button type="submit" variant="danger" disabled={!isConfirmed} isLoading={remove.isPending}>
          {remove.isPending ? "Deleting…" : "Delete user"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Deletes a user after their e-mail address is typed back; then the console goes back to the list. */
export function DeleteUserDialog({ user, open, onOpenChange }: UserDialogProps<DeleteUser>) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Delete ${user.name}?`}
      description="The account, its sessions, sign-in methods and organization memberships are deleted. This cannot be undone."
    >
      {open ? <DeleteForm user={user} onCancel={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

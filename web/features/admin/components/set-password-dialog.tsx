import { z } from "zod";
import { passwordSchema } from "../../../../common/account.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { TextField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { useSetUserPassword } from "../api/admin";
import type { UserDialogProps } from "./user-dialog";

const setPasswordSchema = z.object({ newPassword: passwordSchema });

function SetPasswordForm({
  user,
  onCancel,
  onDone,
}: {
  user: { id: string; name: string };
  onCancel: () => void;
  onDone: () => void;
}) {
  const setPassword = useSetUserPassword(user);
  const form = useZodForm(setPasswordSchema, {
    defaultValues: { newPassword: "" },
    serverErrors: { "PASSWORD*": "newPassword" },
  });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async (values) => {
    await setPassword.mutateAsync(values);
    onDone();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        autoFocus
        description="8 to 128 characters."
        {...form.field("newPassword")}
      />
      <DialogActions onCancel={onCancel}>
        <Button type="submit" isLoading={isSubmitting}>
          {isSubmitting ? "Setting password…" : "Set password"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Replaces a user's password (or gives them one). Their sessions stay: revoking them is its own action. */
export function SetPasswordDialog({ user, open, onOpenChange, fallbackFocus }: UserDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Set a password for ${user.name}`}
      description="Their current password stops working. Tell them the new one through a channel you trust; their sessions stay signed in."
      fallbackFocus={fallbackFocus}
    >
      {open ? (
        <SetPasswordForm user={user} onCancel={() => onOpenChange(false)} onDone={() => onOpenChange(false)} />
      ) : null}
    </Dialog>
  );
}

import { impersonateUserSchema } from "../../../../common/admin.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { TextAreaField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { useImpersonateUser } from "../api/admin";
import type { UserDialogProps } from "./user-dialog";

function ImpersonateForm({ user, onCancel }: { user: { id: string; name: string }; onCancel: () => void }) {
  const impersonate = useImpersonateUser();
  const form = useZodForm(impersonateUserSchema, { defaultValues: { reason: "" } });
  const isSubmitting = form.formState.isSubmitting;
  // On success the whole app reloads as the user and goes home, which closes this dialog with the console.
  const onSubmit = form.submit(({ reason }) => impersonate.mutateAsync({ userId: user.id, reason }));

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <TextAreaField
        label="Reason"
        rows={3}
        monospace={false}
        autoFocus
        description="Kept in the audit log with the impersonation."
        {...form.field("reason")}
      />
      <DialogActions onCancel={onCancel}>
        <Button type="submit" isLoading={isSubmitting}>
          {isSubmitting ? "Starting…" : `Impersonate ${user.name}`}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Browses as another user, for a reason that is recorded; never offered for platform admins or oneself. */
export function ImpersonateDialog({ user, open, onOpenChange }: UserDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Impersonate ${user.name}?`}
      description={`You will see Atrium as ${user.name} sees it, for at most 1 hour; a banner lets you stop sooner. The start, the end and your reason are recorded in the audit log.`}
    >
      {open ? <ImpersonateForm user={user} onCancel={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

import { resetSecondFactorsSchema } from "../../../../common/admin.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { TextAreaField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { useResetSecondFactors } from "../api/admin";
import type { UserDialogProps } from "./user-dialog";

function ResetForm({ user, onDone }: { user: { id: string; name: string }; onDone: () => void }) {
  const reset = useResetSecondFactors(user);
  const form = useZodForm(resetSecondFactorsSchema, { defaultValues: { reason: "" } });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async ({ reason }) => {
    await reset.mutateAsync({ reason });
    onDone();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <TextAreaField
        label="Reason"
        rows={3}
        monospace={false}
        autoFocus
        description="Kept in the audit log with the reset. Say how you checked that the request is theirs."
        {...form.field("reason")}
      />
      <DialogActions onCancel={onDone}>
        <Button type="submit" variant="danger" isLoading={isSubmitting}>
          {isSubmitting ? "Resetting…" : "Reset second factors"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** For a user locked out of their second factors: removes them all, signs the user out and mails them. */
export function ResetSecondFactorsDialog({ user, open, onOpenChange, fallbackFocus }: UserDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      fallbackFocus={fallbackFocus}
      title={`Reset the second factors of ${user.name}?`}
      description={`Their authenticator app, backup codes and passkeys stop working, every session of ${user.name} is signed out, and they get a mail saying so. They sign in with their password alone until they set up a second factor again.`}
    >
      {open ? <ResetForm user={user} onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

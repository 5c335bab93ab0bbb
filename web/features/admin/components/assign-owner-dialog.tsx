import type { RefObject } from "react";
import { assignOwnerSchema } from "../../../../common/admin.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog, DialogActions } from "../../../components/ui/dialog";
import { TextAreaField, TextField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { useAssignOwner } from "../api/organizations";

function AssignOwnerForm({
  organizationId,
  onCancel,
  onDone,
}: {
  organizationId: string;
  onCancel: () => void;
  onDone: () => void;
}) {
  const assign = useAssignOwner(organizationId);
  const form = useZodForm(assignOwnerSchema, {
    defaultValues: { email: "", reason: "" },
    serverErrors: {
      NOT_FOUND: { field: "email", message: "No one has an account with this e-mail address." },
      CONFLICT: { field: "email", message: "This person is already an owner of this organization." },
      PLAN_LIMIT_REACHED: "email",
    },
  });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async (values) => {
    await assign.mutateAsync(values);
    onDone();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      <TextField
        label="New owner's e-mail"
        type="email"
        autoComplete="off"
        autoFocus
        description="Someone with an account here. A member becomes owner; anyone else joins as owner."
        {...form.field("email")}
      />
      <TextAreaField
        label="Reason"
        rows={3}
        monospace={false}
        description="Kept in the audit log with the change."
        {...form.field("reason")}
      />
      <DialogActions onCancel={onCancel}>
        <Button type="submit" isLoading={isSubmitting}>
          {isSubmitting ? "Assigning…" : "Make owner"}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Gives an organization a new owner: for when nobody in it can manage it (its only owner's account is gone). */
export function AssignOwnerDialog({
  organizationId,
  organizationName,
  open,
  onOpenChange,
  fallbackFocus,
}: {
  organizationId: string;
  organizationName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Give ${organizationName} a new owner`}
      description="The owner manages members, billing and the organization's settings. Current owners stay owners."
      fallbackFocus={fallbackFocus}
    >
      {open ? (
        <AssignOwnerForm
          organizationId={organizationId}
          onCancel={() => onOpenChange(false)}
          onDone={() => onOpenChange(false)}
        />
      ) : null}
    </Dialog>
  );
}

import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { z } from "zod";
import { Alert } from "../../../../components/ui/alert";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { Dialog, DialogActions } from "../../../../components/ui/dialog";
import { EmptyState } from "../../../../components/ui/page";
import { TextField } from "../../../../components/ui/text-field";
import { useZodForm } from "../../../../lib/form";
import { useAppMeta } from "../../../../lib/meta";
import { useDeleteOrganization } from "../../api/organizations";
import { useOrganizationContext } from "../../components/organization-context";

/** Deleting the organization, for its owners; anyone else who opens the address is told who can. */
export function DangerZonePage() {
  const { organization, can } = useOrganizationContext();
  const meta = useAppMeta();
  const navigate = useNavigate();
  const deleteOrganization = useDeleteOrganization(organization);
  const [isOpen, setOpen] = useState(false);
  const form = useZodForm(
    z.object({
      confirmation: z
        .string()
        .refine((value) => value.trim() === organization.slug, `Type ${organization.slug} to confirm`),
    }),
    {
      defaultValues: { confirmation: "" },
    },
  );
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async () => {
    await deleteOrganization.mutateAsync();
    await navigate({ to: "/" });
  });

  if (meta.data?.organizations.isDeletionDisabled) {
    return (
      <Card>
        <CardHeader title="Delete organization" />
        <EmptyState title="Deleting organizations is switched off">
          This deployment keeps every organization. Ask its operators if {organization.name} must go.
        </EmptyState>
      </Card>
    );
  }
  if (!can({ organization: ["delete"] })) {
    return (
      <Card>
        <CardHeader title="Delete organization" />
        <EmptyState title="Only an owner can delete this organization">
          Ask an owner of {organization.name} if it should be deleted.
        </EmptyState>
      </Card>
    );
  }

  return (
    <Card className="border-red-200 dark:border-red-900/60">
      <CardHeader
        title="Delete organization"
        description="Deletes the organization with its members, invitations and teams. It cannot be undone."
      />
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete organization…
      </Button>
      <Dialog
        open={isOpen}
        onOpenChange={setOpen}
        title={`Delete ${organization.name}?`}
        description={`Every member loses access at once. Type the slug “${organization.slug}” to confirm.`}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <TextField label={`Type “${organization.slug}”`} autoComplete="off" {...form.field("confirmation")} />
          <DialogActions onCancel={() => setOpen(false)}>
            <Button type="submit" variant="danger" isLoading={isSubmitting}>
              {isSubmitting ? "Deleting…" : "Delete organization"}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </Card>
  );
}

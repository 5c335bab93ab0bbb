import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { TextField } from "../../../components/ui/text-field";
import { useToast } from "../../../components/ui/toast";
import { errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useForm } from "../../../lib/use-form";
import { useInvalidateOrganizations } from "../api/organizations";
import { useOrganizationContext } from "../components/organization-context";

export function DangerZonePage() {
  const { organization } = useOrganizationContext();
  const navigate = useNavigate();
  const toast = useToast();
  const invalidate = useInvalidateOrganizations();
  const [isOpen, setOpen] = useState(false);
  const form = useForm(z.object({ confirmation: z.string().refine((value) => value.trim() === organization.slug, `Type ${organization.slug} to confirm`) }), {
    confirmation: "",
  });

  const onSubmit = form.handleSubmit(async () => {
    try {
      unwrap(await authClient.organization.delete({ organizationId: organization.id }));
      await invalidate();
      toast.success(`${organization.name} was deleted`);
      await navigate({ to: "/" });
    } catch (error) {
      form.setServerError(errorMessage(error));
    }
  });

  return (
    <Card className="border-red-200 dark:border-red-900/60">
      <CardHeader title="Delete organization" description="Deletes the organization with its members, invitations and teams. It cannot be undone." />
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
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" isLoading={form.isSubmitting}>
              {form.isSubmitting ? "Deleting…" : "Delete organization"}
            </Button>
          </div>
        </form>
      </Dialog>
    </Card>
  );
}

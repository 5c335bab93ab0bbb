import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { updateOrganizationSchema } from "../../../../../common/organization.schemas";
import { Alert } from "../../../../components/ui/alert";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { ConfirmDialog } from "../../../../components/ui/dialog";
import { TextAreaField, TextField } from "../../../../components/ui/text-field";
import { useZodForm } from "../../../../lib/form";
import { updateOrganizationServerErrors, useLeaveOrganization, useUpdateOrganization } from "../../api/organizations";
import { useOrganizationContext } from "../../components/organization-context";
import { SlugAvailability, useSlugAvailability } from "../../components/slug-availability";

function metadataText(metadata: unknown): string {
  if (!metadata) return "";
  const value = typeof metadata === "string" ? (JSON.parse(metadata) as unknown) : metadata;
  return Object.keys(value as object).length ? JSON.stringify(value, null, 2) : "";
}

export function GeneralSettingsPage() {
  const { organization, can } = useOrganizationContext();
  const navigate = useNavigate();
  const updateOrganization = useUpdateOrganization(organization.id);
  const leaveOrganization = useLeaveOrganization(organization);
  const canUpdate = can({ organization: ["update"] });
  const [isConfirmingLeave, setConfirmLeave] = useState(false);
  const form = useZodForm(updateOrganizationSchema, {
    defaultValues: { name: organization.name, slug: organization.slug, logo: organization.logo ?? "", metadata: metadataText(organization.metadata) },
    serverErrors: updateOrganizationServerErrors,
  });
  const availability = useSlugAvailability(form.watch("slug"), organization.slug);
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async (values) => {
    if (availability === "taken") return form.setServerError("slug is taken", "slug");
    await updateOrganization.mutateAsync(values);
  });

  async function leave() {
    await leaveOrganization.mutateAsync();
    await navigate({ to: "/" });
  }

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="General"
          description={canUpdate ? "The name, address and picture of the organization." : "Only owners and admins can change these."}
        />
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <fieldset disabled={!canUpdate} className="space-y-4">
            <TextField label="Name" {...form.field("name")} />
            <TextField label="Slug" description={<SlugAvailability state={availability} />} {...form.field("slug")} />
            <TextField label="Logo URL" type="url" placeholder="https://…" {...form.field("logo")} />
            <TextAreaField
              label="Metadata (JSON)"
              rows={5}
              placeholder='{"plan": "pro"}'
              description="A JSON object for your own use, up to 16 KB and 10 levels deep."
              {...form.field("metadata")}
            />
          </fieldset>
          {canUpdate ? (
            <div className="flex justify-end">
              <Button type="submit" isLoading={isSubmitting}>
                {isSubmitting ? "Saving…" : "Save changes"}
              </Button>
            </div>
          ) : null}
        </form>
      </Card>
      <Card>
        <CardHeader title="Leave organization" description="You lose access to this organization. The last owner cannot leave." />
        <Button variant="secondary" onClick={() => setConfirmLeave(true)}>
          Leave organization
        </Button>
        <ConfirmDialog
          open={isConfirmingLeave}
          onOpenChange={setConfirmLeave}
          title={`Leave ${organization.name}?`}
          description="You will lose access to its members, teams and billing until someone invites you again."
          confirmLabel="Leave"
          onConfirm={leave}
        />
      </Card>
    </div>
  );
}

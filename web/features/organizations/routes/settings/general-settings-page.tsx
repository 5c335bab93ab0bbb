import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { updateOrganizationSchema } from "../../../../../common/organization.schemas";
import { Alert } from "../../../../components/ui/alert";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader } from "../../../../components/ui/card";
import { ConfirmDialog } from "../../../../components/ui/dialog";
import { TextAreaField, TextField } from "../../../../components/ui/text-field";
import { useZodForm } from "../../../../lib/form";
import {
  updateOrganizationServerErrors,
  useLeaveOrganization,
  useMembers,
  useUpdateOrganization,
} from "../../api/organizations";
import { hasOwnerRole, useOrganizationContext } from "../../components/organization-context";
import { SLUG_TAKEN_MESSAGE, SlugAvailability, useSlugAvailability } from "../../components/slug-availability";

function metadataText(metadata: unknown): string {
  if (!metadata) return "";
  const value = typeof metadata === "string" ? (JSON.parse(metadata) as unknown) : metadata;
  return Object.keys(value as object).length ? JSON.stringify(value, null, 2) : "";
}

const link = "font-medium text-brand-600 hover:underline dark:text-brand-400";

/**
 * Leaving, or why not: the spec's last owner cannot leave, so a sole owner is told what to do instead of being
 * offered a button that always fails.
 */
function LeaveOrganization() {
  const { organization, role, can } = useOrganizationContext();
  const navigate = useNavigate();
  const leaveOrganization = useLeaveOrganization(organization);
  const [isConfirmingLeave, setConfirmLeave] = useState(false);
  const isOwner = hasOwnerRole(role);
  // Only an owner needs the count; one row is enough to read it.
  const owners = useMembers(organization.id, "", 0, 1, isOwner);
  const isSoleOwner = isOwner && owners.data?.ownerCount === 1;
  const params = { organizationId: organization.id };

  async function leave() {
    await leaveOrganization.mutateAsync();
    await navigate({ to: "/" });
  }

  if (isSoleOwner) {
    return (
      <Card>
        <CardHeader
          title="Leave organization"
          description={`You are the only owner of ${organization.name}, so you cannot leave it yet.`}
        />
        <p className="text-sm text-zinc-600 dark:text-zinc-300">
          Make another member an owner on the{" "}
          <Link to="/organizations/$organizationId/settings/members" params={params} className={link}>
            Members
          </Link>{" "}
          page first, then leave.
          {can({ organization: ["delete"] }) ? (
            <>
              {" "}
              Or delete the organization in the{" "}
              <Link to="/organizations/$organizationId/settings/danger" params={params} className={link}>
                Danger zone
              </Link>
              .
            </>
          ) : null}
        </p>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader
        title="Leave organization"
        description="You lose access to this organization until someone invites you again."
      />
      <Button variant="secondary" onClick={() => setConfirmLeave(true)} disabled={isOwner && !owners.data}>
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
  );
}

export function GeneralSettingsPage() {
  const { organization, can } = useOrganizationContext();
  const updateOrganization = useUpdateOrganization(organization.id);
  const canUpdate = can({ organization: ["update"] });
  const form = useZodForm(updateOrganizationSchema, {
    defaultValues: {
      name: organization.name,
      slug: organization.slug,
      logo: organization.logo ?? "",
      metadata: metadataText(organization.metadata),
    },
    serverErrors: updateOrganizationServerErrors,
  });
  const availability = useSlugAvailability(form.watch("slug"), organization.slug);
  const slugField = form.field("slug");
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async (values) => {
    if (availability === "taken") return form.setServerError(SLUG_TAKEN_MESSAGE, "slug");
    await updateOrganization.mutateAsync(values);
  });

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="General"
          description={
            canUpdate
              ? "The name, address and picture of the organization."
              : "Only owners and admins can change these."
          }
        />
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <fieldset disabled={!canUpdate} className="space-y-4">
            <TextField label="Name" {...form.field("name")} />
            <TextField
              label="Slug"
              // A refused slug is said once, as the field's error.
              description={slugField.error ? undefined : <SlugAvailability state={availability} />}
              {...slugField}
            />
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
      <LeaveOrganization />
    </div>
  );
}

import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { createOrganizationSchema } from "../../../../common/organization.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { PageHeader } from "../../../components/ui/page";
import { TextField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { slugify, useCreateOrganization } from "../api/organizations";
import { SLUG_TAKEN_MESSAGE, SlugAvailability, useSlugAvailability } from "../components/slug-availability";

export function CreateOrganizationPage() {
  const navigate = useNavigate();
  const createOrganization = useCreateOrganization();
  const form = useZodForm(createOrganizationSchema, { defaultValues: { name: "", slug: "", logo: "" } });
  const [isSlugEdited, setSlugEdited] = useState(false);
  const availability = useSlugAvailability(form.watch("slug"));
  const nameField = form.field("name");
  const slugField = form.field("slug");
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async (values) => {
    if (availability === "taken") return form.setServerError(SLUG_TAKEN_MESSAGE, "slug");
    const organization = await createOrganization.mutateAsync(values);
    await navigate({ to: "/organizations/$organizationId/settings", params: { organizationId: organization.id } });
  });

  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <PageHeader
        title="Create an organization"
        description="Organizations hold members, teams and billing. You will be its owner."
      />
      <Card>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <TextField
            label="Name"
            autoFocus
            {...nameField}
            onChange={(event) => {
              // Until the person edits the slug, it follows the name.
              if (!isSlugEdited)
                form.setValue("slug", slugify(event.target.value), {
                  shouldValidate: form.getFieldState("slug").invalid,
                });
              return nameField.onChange(event);
            }}
          />
          <TextField
            label="Slug"
            // A refused slug is said once, as the field's error.
            description={slugField.error ? undefined : <SlugAvailability state={availability} />}
            {...slugField}
            onChange={(event) => {
              setSlugEdited(true);
              return slugField.onChange(event);
            }}
          />
          <TextField label="Logo URL (optional)" type="url" placeholder="https://…" {...form.field("logo")} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => navigate({ to: "/" })}>
              Cancel
            </Button>
            <Button type="submit" isLoading={isSubmitting}>
              {isSubmitting ? "Creating…" : "Create organization"}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}

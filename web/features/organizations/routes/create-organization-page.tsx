import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { createOrganizationSchema } from "../../../../common/organization.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { PageHeader } from "../../../components/ui/page";
import { TextField } from "../../../components/ui/text-field";
import { useToast } from "../../../components/ui/toast";
import { errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useForm } from "../../../lib/use-form";
import { slugify, useInvalidateOrganizations, type Organization } from "../api/organizations";
import { SlugAvailability, useSlugAvailability } from "../components/slug-availability";

export function CreateOrganizationPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const invalidate = useInvalidateOrganizations();
  const form = useForm(createOrganizationSchema, { name: "", slug: "", logo: "" });
  const [isSlugEdited, setSlugEdited] = useState(false);
  const availability = useSlugAvailability(form.values.slug);
  const nameField = form.field("name");
  const slugField = form.field("slug");

  const onSubmit = form.handleSubmit(async ({ name, slug, logo }) => {
    if (availability === "taken") {
      form.setServerError("slug is taken", "slug");
      return;
    }
    try {
      const organization = unwrap(await authClient.organization.create({ name, slug, ...(logo ? { logo } : {}) })) as Organization;
      await invalidate();
      toast.success(`${organization.name} is ready`);
      await navigate({ to: "/organizations/$organizationId/settings", params: { organizationId: organization.id } });
    } catch (error) {
      form.setServerError(errorMessage(error));
    }
  });

  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <PageHeader title="Create an organization" description="Organizations hold members, teams and billing. You will be its owner." />
      <Card>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <TextField
            label="Name"
            autoFocus
            {...nameField}
            onChange={(event) => {
              const name = event.target.value;
              form.setValues({ ...form.values, name, slug: isSlugEdited ? form.values.slug : slugify(name) });
            }}
          />
          <TextField
            label="Slug"
            description={<SlugAvailability state={availability} />}
            {...slugField}
            onChange={(event) => {
              setSlugEdited(true);
              slugField.onChange(event);
            }}
          />
          <TextField label="Logo URL (optional)" type="url" placeholder="https://…" {...form.field("logo")} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => navigate({ to: "/" })}>
              Cancel
            </Button>
            <Button type="submit" isLoading={form.isSubmitting}>
              {form.isSubmitting ? "Creating…" : "Create organization"}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}

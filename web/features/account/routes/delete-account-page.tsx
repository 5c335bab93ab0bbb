import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import type { OrganizationSummary } from "../../../../common/organization.schemas";
import { useState } from "react";
import { z } from "zod";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { TextField } from "../../../components/ui/text-field";
import { ApiError, soleOwnerOrganizations } from "../../../lib/api-error";
import type { NoticeCode } from "../../../lib/address-messages";
import { useZodForm } from "../../../lib/form";
import * as account from "../api/account";
import { useHasPassword } from "../api/sign-in-methods";

const CONFIRMATION = "delete my account";
const confirmation = z
  .string()
  .refine((value) => value.trim().toLowerCase() === CONFIRMATION, `Type “${CONFIRMATION}” to confirm`);
// Someone without a password (signed up through a provider) confirms with a recent sign-in instead.
const withPasswordSchema = z.object({ password: z.string().min(1, "Enter your password"), confirmation });
const withoutPasswordSchema = z.object({ password: z.string(), confirmation });

export function DeleteAccountPage() {
  const navigate = useNavigate();
  const deleteAccount = account.useDeleteAccount();
  const hasPassword = useHasPassword() !== false;
  const [isOpen, setOpen] = useState(false);
  const preview = account.useDeletionPreview(isOpen);
  const queryClient = useQueryClient();
  // What a SOLE_OWNER refusal listed: newer than the preview read when the dialog opened.
  const [refusedFor, setRefusedFor] = useState<OrganizationSummary[] | undefined>();
  const soleOwnerOf = refusedFor ?? preview.data?.soleOwnerOf ?? [];
  const form = useZodForm(hasPassword ? withPasswordSchema : withoutPasswordSchema, {
    defaultValues: { password: "", confirmation: "" },
    serverErrors: account.deleteAccountServerErrors,
  });
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async ({ password }) => {
    try {
      await deleteAccount.mutateAsync(hasPassword ? { password } : {});
    } catch (error) {
      const organizations = soleOwnerOrganizations(error);
      if (organizations) {
        setRefusedFor(organizations);
        void queryClient.invalidateQueries({ queryKey: account.deletionPreviewQuery.queryKey });
      }
      if (error instanceof ApiError && error.code === "SESSION_EXPIRED") {
        throw new Error(
          "For your safety, deleting an account without a password needs a recent sign-in. Sign out, sign in again, then delete it.",
        );
      }
      throw error;
    }
    await navigate({ to: "/", search: { notice: "account-deleted" satisfies NoticeCode } });
  });

  return (
    <Card className="border-red-200 dark:border-red-900/60">
      <CardHeader
        title="Delete account"
        description="Deleting your account removes your profile, your sessions and your memberships. It cannot be undone."
      />
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete my account…
      </Button>
      <Dialog
        open={isOpen}
        onOpenChange={(open) => {
          setOpen(open);
          if (!open) setRefusedFor(undefined);
        }}
        title="Delete your account?"
        description={`This cannot be undone. ${hasPassword ? "Enter your password and type" : "Type"} the confirmation to continue.`}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <FormErrorAlert message={form.formError} />
          {preview.isPending ? <Spinner label="Checking your organizations…" /> : null}
          <SoleOwnerOrganizations organizations={soleOwnerOf} />
          <DeletedWithAccount organizations={preview.data?.deletedWithAccount ?? []} />
          {hasPassword ? (
            <TextField label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
          ) : null}
          <TextField label={`Type “${CONFIRMATION}”`} autoComplete="off" {...form.field("confirmation")} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" isLoading={isSubmitting}>
              {isSubmitting ? "Deleting…" : "Delete account"}
            </Button>
          </div>
        </form>
      </Dialog>
    </Card>
  );
}

const SOLE_OWNER_HELP =
  "You are their only owner and they have other members. Make another member an owner in Members (you can then " +
  "step down), or delete the organization.";
const DELETED_WITH_ACCOUNT_HELP = "They are deleted with your account, with their teams, and their subscriptions end.";
const SOLE_OWNER_CLASS = "rounded-lg border border-amber-300 p-3 text-sm dark:border-amber-800";

/** The organizations the person alone owns with other members: each hands over to another owner, or goes first. */
function SoleOwnerOrganizations({ organizations }: { organizations: OrganizationSummary[] }) {
  if (organizations.length === 0) return null;
  const linkClass = "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-300";
  return (
    <section aria-labelledby="sole-owner-heading" className={SOLE_OWNER_CLASS}>
      <h3 id="sole-owner-heading" className="font-semibold">
        Hand these organizations over first
      </h3>
      <p className="mt-1 text-zinc-600 dark:text-zinc-300">{SOLE_OWNER_HELP}</p>
      <ul className="mt-2 space-y-2">
        {organizations.map((organization) => (
          <li key={organization.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-medium break-all">{organization.name}</span>
            <Link
              to="/organizations/$organizationId/settings/members"
              params={{ organizationId: organization.id }}
              className={linkClass}
              aria-label={`Transfer ownership of ${organization.name}`}
            >
              Transfer ownership
            </Link>
            <Link
              to="/organizations/$organizationId/settings/danger"
              params={{ organizationId: organization.id }}
              className={linkClass}
              aria-label={`Delete ${organization.name}`}
            >
              Delete
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The organizations that have no other member: they go with the account, and their subscriptions end. */
function DeletedWithAccount({ organizations }: { organizations: OrganizationSummary[] }) {
  if (organizations.length === 0) return null;
  return (
    <section aria-labelledby="deleted-with-account-heading" className="text-sm">
      <h3 id="deleted-with-account-heading" className="font-semibold">
        Also deleted: organizations where you are the only member
      </h3>
      <p className="mt-1 text-zinc-600 dark:text-zinc-300">{DELETED_WITH_ACCOUNT_HELP}</p>
      <ul className="mt-2 list-disc pl-5">
        {organizations.map((organization) => (
          <li key={organization.id} className="break-all">
            {organization.name}
          </li>
        ))}
      </ul>
    </section>
  );
}

import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { z } from "zod";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { TextField } from "../../../components/ui/text-field";
import { ApiError } from "../../../lib/api-error";
import { useZodForm } from "../../../lib/form";
import { deleteAccountServerErrors, useDeleteAccount } from "../api/account";
import { useHasPassword } from "../api/sign-in-methods";

const CONFIRMATION = "delete my account";
const confirmation = z.string().refine((value) => value.trim().toLowerCase() === CONFIRMATION, `Type “${CONFIRMATION}” to confirm`);
// Someone without a password (signed up through a provider) confirms with a recent sign-in instead.
const withPasswordSchema = z.object({ password: z.string().min(1, "Enter your password"), confirmation });
const withoutPasswordSchema = z.object({ password: z.string(), confirmation });

export function DeleteAccountPage() {
  const navigate = useNavigate();
  const deleteAccount = useDeleteAccount();
  const hasPassword = useHasPassword() !== false;
  const [isOpen, setOpen] = useState(false);
  const form = useZodForm(hasPassword ? withPasswordSchema : withoutPasswordSchema, {
    defaultValues: { password: "", confirmation: "" },
    serverErrors: deleteAccountServerErrors,
  });
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async ({ password }) => {
    try {
      await deleteAccount.mutateAsync(hasPassword ? { password } : {});
    } catch (error) {
      if (error instanceof ApiError && error.code === "SESSION_EXPIRED") {
        throw new Error("For your safety, deleting an account without a password needs a recent sign-in. Sign out, sign in again, then delete it.");
      }
      throw error;
    }
    await navigate({ to: "/", search: { notice: "Your account was deleted." } });
  });

  return (
    <Card className="border-red-200 dark:border-red-900/60">
      <CardHeader title="Delete account" description="Deleting your account removes your profile, your sessions and your memberships. It cannot be undone." />
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete my account…
      </Button>
      <Dialog
        open={isOpen}
        onOpenChange={setOpen}
        title="Delete your account?"
        description={`This cannot be undone. ${hasPassword ? "Enter your password and type" : "Type"} the confirmation to continue.`}
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <FormErrorAlert message={form.formError} />
          {hasPassword ? <TextField label="Password" type="password" autoComplete="current-password" {...form.field("password")} /> : null}
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

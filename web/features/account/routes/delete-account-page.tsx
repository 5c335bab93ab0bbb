import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { TextField } from "../../../components/ui/text-field";
import { ApiError, errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useForm } from "../../../lib/use-form";
import { useRefreshSession } from "../../auth/api/session";

const CONFIRMATION = "delete my account";
const deleteAccountSchema = z.object({
  password: z.string().min(1, "Enter your password"),
  confirmation: z.string().refine((value) => value.trim().toLowerCase() === CONFIRMATION, `Type “${CONFIRMATION}” to confirm`),
});

export function DeleteAccountPage() {
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [isOpen, setOpen] = useState(false);
  const form = useForm(deleteAccountSchema, { password: "", confirmation: "" });

  const onSubmit = form.handleSubmit(async ({ password }) => {
    try {
      unwrap(await authClient.deleteUser({ password }));
      await refreshSession({ clearEverything: true });
      await navigate({ to: "/", search: { notice: "Your account was deleted." } });
    } catch (error) {
      if (error instanceof ApiError && error.code === "INVALID_PASSWORD") form.setServerError("That password is not right.", "password");
      else form.setServerError(errorMessage(error));
    }
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
        description="This cannot be undone. Enter your password and type the confirmation to continue."
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <TextField label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
          <TextField label={`Type “${CONFIRMATION}”`} autoComplete="off" {...form.field("confirmation")} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" isLoading={form.isSubmitting}>
              {form.isSubmitting ? "Deleting…" : "Delete account"}
            </Button>
          </div>
        </form>
      </Dialog>
    </Card>
  );
}

import { changePasswordSchema } from "../../../../common/account.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { useToast } from "../../../components/ui/toast";
import { TextField } from "../../../components/ui/text-field";
import { ApiError, errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useForm } from "../../../lib/use-form";

export function PasswordPage() {
  const toast = useToast();
  const form = useForm(changePasswordSchema, { currentPassword: "", newPassword: "", confirmPassword: "" });

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      unwrap(await authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions: true }));
      form.setValues({ currentPassword: "", newPassword: "", confirmPassword: "" });
      toast.success("Password changed. Your other sessions were signed out.");
    } catch (error) {
      if (error instanceof ApiError && error.code === "INVALID_PASSWORD") form.setServerError("That is not your current password.", "currentPassword");
      else form.setServerError(errorMessage(error));
    }
  });

  return (
    <Card>
      <CardHeader title="Change password" description="Changing your password signs out every other session of your account." />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        <TextField label="Current password" type="password" autoComplete="current-password" {...form.field("currentPassword")} />
        <TextField label="New password" type="password" autoComplete="new-password" description="8 to 128 characters." {...form.field("newPassword")} />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" {...form.field("confirmPassword")} />
        <div className="flex justify-end">
          <Button type="submit" isLoading={form.isSubmitting}>
            {form.isSubmitting ? "Changing…" : "Change password"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

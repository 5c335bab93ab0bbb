import { changePasswordSchema } from "../../../../common/account.schemas";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/text-field";
import { ERROR_SENTENCES } from "../../../lib/error-sentences";
import { useZodForm } from "../../../lib/form";
import { changePasswordServerErrors, useChangePassword } from "../api/account";
import { useHasPassword } from "../api/sign-in-methods";
import { SetPasswordByMail } from "../components/set-password-by-mail";

export function PasswordPage({ email }: { email: string }) {
  const hasPassword = useHasPassword();
  if (hasPassword === false) {
    return (
      <Card>
        <CardHeader
          title="Set a password"
          description="You sign in through a provider and have no password yet. Set one to sign in with your e-mail address or username too; your provider keeps working."
        />
        <SetPasswordByMail email={email} />
      </Card>
    );
  }
  return <ChangePasswordForm />;
}

function ChangePasswordForm() {
  const changePassword = useChangePassword();
  const form = useZodForm(changePasswordSchema, {
    defaultValues: { currentPassword: "", newPassword: "", confirmPassword: "" },
    serverErrors: changePasswordServerErrors,
  });
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async (values) => {
    // The server refuses it too (PASSWORD_UNCHANGED), after checking the current password; saying so here saves the trip.
    if (values.newPassword === values.currentPassword)
      return form.setServerError(ERROR_SENTENCES.PASSWORD_UNCHANGED, "newPassword");
    await changePassword.mutateAsync(values);
    form.reset();
  });

  return (
    <Card>
      <CardHeader
        title="Change password"
        description="Changing your password signs out every other session of your account."
      />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormErrorAlert message={form.formError} />
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...form.field("currentPassword")}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          description="8 to 128 characters."
          {...form.field("newPassword")}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          {...form.field("confirmPassword")}
        />
        <div className="flex justify-end">
          <Button type="submit" isLoading={isSubmitting}>
            {isSubmitting ? "Changing…" : "Change password"}
          </Button>
        </div>
      </form>
    </Card>
  );
}

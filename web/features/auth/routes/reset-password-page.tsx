import { useNavigate } from "@tanstack/react-router";
import { resetPasswordSchema } from "../../../../common/account.schemas";
import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import type { NoticeCode } from "../../../lib/address-messages";
import { useZodForm } from "../../../lib/form";
import { useResetPassword } from "../api/auth";

export function ResetPasswordPage({ token, error }: { token?: string; error?: string }) {
  const navigate = useNavigate();
  const resetPassword = useResetPassword();
  const form = useZodForm(resetPasswordSchema, { defaultValues: { newPassword: "", confirmPassword: "" } });
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async ({ newPassword }) => {
    await resetPassword.mutateAsync({ newPassword, token: token ?? "" });
    await navigate({ to: "/sign-in", search: { notice: "password-changed" satisfies NoticeCode } });
  });

  if (error || !token) {
    return (
      <AuthLayout title="This link does not work" description="Reset links work once, for 1 hour.">
        <Alert tone="error">
          The link is invalid or has expired. <TextLink to="/forgot-password">Ask for a new one</TextLink>.
        </Alert>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Choose a new password" description="Every other session of your account will be signed out.">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormErrorAlert message={form.formError} />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          autoFocus
          description="8 to 128 characters."
          {...form.field("newPassword")}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          {...form.field("confirmPassword")}
        />
        <Button type="submit" className="w-full" isLoading={isSubmitting}>
          {isSubmitting ? "Saving…" : "Save new password"}
        </Button>
      </form>
    </AuthLayout>
  );
}

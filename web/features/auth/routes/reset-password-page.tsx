import { useNavigate } from "@tanstack/react-router";
import { resetPasswordSchema } from "../../../../common/account.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useForm } from "../../../lib/use-form";
import { AuthLayout, TextLink } from "../components/auth-layout";

export function ResetPasswordPage({ token, error }: { token?: string; error?: string }) {
  const navigate = useNavigate();
  const form = useForm(resetPasswordSchema, { newPassword: "", confirmPassword: "" });

  const onSubmit = form.handleSubmit(async ({ newPassword }) => {
    try {
      unwrap(await authClient.resetPassword({ newPassword, token: token ?? "" }));
      await navigate({ to: "/sign-in", search: { notice: "Your password was changed. Sign in with the new one." } });
    } catch (caught) {
      form.setServerError(errorMessage(caught));
    }
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
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          autoFocus
          description="8 to 128 characters."
          {...form.field("newPassword")}
        />
        <TextField label="Confirm new password" type="password" autoComplete="new-password" {...form.field("confirmPassword")} />
        <Button type="submit" className="w-full" isLoading={form.isSubmitting}>
          {form.isSubmitting ? "Saving…" : "Save new password"}
        </Button>
      </form>
    </AuthLayout>
  );
}

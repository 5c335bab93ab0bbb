import { useState } from "react";
import { forgotPasswordSchema } from "../../../../common/account.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useForm } from "../../../lib/use-form";
import { AuthLayout, TextLink } from "../components/auth-layout";

export function ForgotPasswordPage() {
  const form = useForm(forgotPasswordSchema, { email: "" });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      unwrap(await authClient.requestPasswordReset({ email, redirectTo: "/reset-password" }));
      setSentTo(email);
    } catch (error) {
      form.setServerError(errorMessage(error));
    }
  });

  return (
    <AuthLayout
      title="Forgot your password?"
      description="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={
        <>
          Remembered it? <TextLink to="/sign-in">Sign in</TextLink>
        </>
      }
    >
      {sentTo ? (
        <Alert tone="success" title="Check your inbox">
          If an account exists for {sentTo}, a reset link is on its way. It works for 1 hour.
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <TextField label="E-mail" type="email" autoComplete="email" autoFocus {...form.field("email")} />
          <Button type="submit" className="w-full" isLoading={form.isSubmitting}>
            {form.isSubmitting ? "Sending…" : "Send reset link"}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}

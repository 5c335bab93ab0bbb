import { forgotPasswordSchema } from "../../../../common/account.schemas";
import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { useRequestPasswordReset } from "../api/auth";

export function ForgotPasswordPage() {
  const requestReset = useRequestPasswordReset();
  const form = useZodForm(forgotPasswordSchema, { defaultValues: { email: "" } });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit((values) => requestReset.mutateAsync(values));

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
      {requestReset.isSuccess ? (
        <Alert tone="success" title="Check your inbox">
          If an account exists for {requestReset.variables.email}, a reset link is on its way. It works for 1 hour.
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <FormErrorAlert message={form.formError} />
          <TextField label="E-mail" type="email" autoComplete="email" autoFocus {...form.field("email")} />
          <Button type="submit" className="w-full" isLoading={isSubmitting}>
            {isSubmitting ? "Sending…" : "Send reset link"}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}

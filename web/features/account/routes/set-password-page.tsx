import { Link, useNavigate } from "@tanstack/react-router";
import { resetPasswordSchema } from "../../../../common/account.schemas";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { useSetFirstPassword } from "../api/sign-in-methods";

/**
 * Where the link to set a first password lands (`token`, or better-auth's `error` when the link did not work): the
 * person chooses a password and stays signed in here, unlike a reset, which signs every session out.
 */
export function SetPasswordPage({ token, error }: { token?: string; error?: string }) {
  const navigate = useNavigate();
  const setFirstPassword = useSetFirstPassword();
  const form = useZodForm(resetPasswordSchema, { defaultValues: { newPassword: "", confirmPassword: "" } });
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async ({ newPassword }) => {
    await setFirstPassword.mutateAsync({ newPassword, token: token ?? "" });
    await navigate({ to: "/account/sign-in-methods" });
  });

  if (error || !token) {
    return (
      <Card>
        <CardHeader title="This link does not work" description="Links to set a password work once, for 1 hour." />
        <Alert tone="error">
          The link is invalid or has expired.{" "}
          <Link to="/account/sign-in-methods" className="font-medium underline">
            Ask for a new one
          </Link>
          .
        </Alert>
      </Card>
    );
  }

  return (
    <Card>
      <CardHeader
        title="Set a password"
        description="Sign in with your e-mail address or username and this password too. You stay signed in here, and your provider keeps working."
      />
      <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
        <FormErrorAlert message={form.formError} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          autoFocus
          description="8 to 128 characters."
          {...form.field("newPassword")}
        />
        <TextField
          label="Confirm password"
          type="password"
          autoComplete="new-password"
          {...form.field("confirmPassword")}
        />
        <Button type="submit" isLoading={isSubmitting}>
          {isSubmitting ? "Saving…" : "Set password"}
        </Button>
      </form>
    </Card>
  );
}

import { Link, useNavigate } from "@tanstack/react-router";
import { Alert } from "../../../components/ui/alert";
import { Card, CardHeader } from "../../../components/ui/card";
import { NewPasswordForm } from "../../../components/new-password-form";
import { useSetFirstPassword } from "../api/sign-in-methods";

/**
 * Where the link to set a first password lands (`token`, or better-auth's `error` when the link did not work): the
 * person chooses a password and stays signed in here, unlike a reset, which signs every session out.
 */
export function SetPasswordPage({ token, error }: { token?: string; error?: string }) {
  const navigate = useNavigate();
  const setFirstPassword = useSetFirstPassword();

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
      <NewPasswordForm
        wording={{ password: "Password", confirm: "Confirm password", submit: "Set password" }}
        className="max-w-md space-y-4"
        onSave={async (newPassword) => {
          await setFirstPassword.mutateAsync({ newPassword, token: token ?? "" });
          await navigate({ to: "/account/sign-in-methods" });
        }}
      />
    </Card>
  );
}

import { useNavigate } from "@tanstack/react-router";
import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { NewPasswordForm } from "../../../components/new-password-form";
import { Alert } from "../../../components/ui/alert";
import type { NoticeCode } from "../../../lib/address-messages";
import { useResetPassword } from "../api/auth";

export function ResetPasswordPage({ token, error }: { token?: string; error?: string }) {
  const navigate = useNavigate();
  const resetPassword = useResetPassword();

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
      <NewPasswordForm
        wording={{ password: "New password", confirm: "Confirm new password", submit: "Save new password" }}
        buttonClassName="w-full"
        onSave={async (newPassword) => {
          await resetPassword.mutateAsync({ newPassword, token: token ?? "" });
          await navigate({ to: "/sign-in", search: { notice: "password-changed" satisfies NoticeCode } });
        }}
      />
    </AuthLayout>
  );
}

import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { DevMailboxHint } from "../../../components/dev-mailbox-hint";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { errorMessage } from "../../../lib/api-error";
import { useSendVerificationEmail } from "../api/auth";

/** After sign-up: where the link went, a way to send it again, and in development the mailbox. */
export function CheckEmailPage({ email }: { email?: string }) {
  const resend = useSendVerificationEmail();

  return (
    <AuthLayout
      title="Check your inbox"
      description={
        <>
          We sent a verification link to{" "}
          <strong className="text-zinc-900 dark:text-zinc-100">{email ?? "your e-mail address"}</strong>. Open it to
          verify your address and sign in. The link works for 1 hour.
        </>
      }
      footer={
        <>
          Verified already? <TextLink to="/sign-in">Sign in</TextLink>
        </>
      }
    >
      <div className="space-y-4">
        {resend.isSuccess ? <Alert tone="success">We sent a new link. It works for 1 hour.</Alert> : null}
        {resend.isError ? <Alert tone="error">{errorMessage(resend.error)}</Alert> : null}
        {email ? (
          <Button
            variant="secondary"
            className="w-full"
            onClick={() => resend.mutate({ email })}
            isLoading={resend.isPending}
          >
            Send the link again
          </Button>
        ) : null}
        <DevMailboxHint />
      </div>
    </AuthLayout>
  );
}

import { useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useAppMeta } from "../api/meta";
import { AuthLayout, TextLink } from "../components/auth-layout";

/** After sign-up: where the link went, a way to send it again, and in development the mailbox. */
export function CheckEmailPage({ email }: { email?: string }) {
  const meta = useAppMeta();
  const [status, setStatus] = useState<{ tone: "success" | "error"; message: string } | null>(null);
  const [isSending, setSending] = useState(false);

  async function resend() {
    if (!email) return;
    setSending(true);
    setStatus(null);
    try {
      unwrap(await authClient.sendVerificationEmail({ email, callbackURL: "/" }));
      setStatus({ tone: "success", message: "We sent a new link. It works for 1 hour." });
    } catch (error) {
      setStatus({ tone: "error", message: errorMessage(error) });
    } finally {
      setSending(false);
    }
  }

  return (
    <AuthLayout
      title="Check your inbox"
      description={
        <>
          We sent a verification link to <strong className="text-zinc-900 dark:text-zinc-100">{email ?? "your e-mail address"}</strong>. Open it to verify your
          address and sign in. The link works for 1 hour.
        </>
      }
      footer={
        <>
          Verified already? <TextLink to="/sign-in">Sign in</TextLink>
        </>
      }
    >
      <div className="space-y-4">
        {status ? <Alert tone={status.tone}>{status.message}</Alert> : null}
        {email ? (
          <Button variant="secondary" className="w-full" onClick={resend} isLoading={isSending}>
            Send the link again
          </Button>
        ) : null}
        {meta.data?.devMailbox ? (
          <Alert tone="info" title="Running locally?">
            Mail is kept in the{" "}
            <a href="/dev/mail" className="font-medium underline">
              dev mailbox
            </a>{" "}
            instead of being sent.
          </Alert>
        ) : null}
      </div>
    </AuthLayout>
  );
}

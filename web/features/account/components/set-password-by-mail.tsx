import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { errorMessage } from "../../../lib/api-error";
import { DevMailboxHint } from "../../../components/dev-mailbox-hint";
import { useSendSetPasswordLink } from "../api/sign-in-methods";

/**
 * For someone who signed up through a provider: a password is set through a mailed link, as a reset is, so
 * whoever holds a session alone cannot add one.
 */
export function SetPasswordByMail({ email }: { email: string }) {
  const send = useSendSetPasswordLink();

  if (send.isSuccess) {
    return (
      <div className="space-y-3">
        <Alert tone="success" title="Check your inbox">
          We sent a link to <strong>{email}</strong>. Open it within 1 hour to choose a password.
        </Alert>
        <DevMailboxHint />
      </div>
    );
  }
  return (
    <div className="space-y-3">
      {send.isError ? <Alert tone="error">{errorMessage(send.error)}</Alert> : null}
      <Button variant="secondary" size="sm" isLoading={send.isPending} onClick={() => send.mutate({ email })}>
        E-mail me a link to set a password
      </Button>
    </div>
  );
}

import { Alert } from "./ui/alert";
import { useAppMeta } from "../lib/meta";

/** Under a "we sent you a mail" message: where that mail is when the deployment keeps mail in the dev mailbox. */
export function DevMailboxHint() {
  const meta = useAppMeta();
  if (!meta.data?.devMailbox) return null;
  return (
    <Alert tone="info" title="Running locally?">
      Mail is kept in the{" "}
      <a href="/dev/mail" className="font-medium underline">
        dev mailbox
      </a>{" "}
      instead of being sent.
    </Alert>
  );
}

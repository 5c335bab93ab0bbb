import { useState } from "react";
import { passkeyNameFormSchema } from "../../../../common/account.schemas";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { LoadingBlock } from "../../../components/ui/spinner";
import { TextField } from "../../../components/ui/text-field";
import { errorMessage } from "../../../lib/api-error";
import { formatDateTime } from "../../../lib/format";
import { useZodForm } from "../../../lib/form";
import { useAddPasskey, useDeletePasskey, usePasskeys, useRenamePasskey, type Passkey } from "../api/passkeys";

/** What the name dialog is doing: naming a new passkey, or renaming one. */
type Naming = { kind: "add" } | { kind: "rename"; passkey: Passkey };

const nameOf = (passkey: Passkey) => passkey.name ?? "Unnamed passkey";

/** Whether this browser can make passkeys at all; without WebAuthn the button would only fail. */
const canMakePasskeys = () => typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";

/**
 * The account's passkeys: each with its name and when it was added and last signed in; add one (a name, then the
 * browser's prompt), rename one, delete one after a confirmation.
 */
export function PasskeysCard() {
  const passkeys = usePasskeys();
  const remove = useDeletePasskey();
  const [naming, setNaming] = useState<Naming | null>(null);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const supported = canMakePasskeys();

  return (
    <Card>
      <CardHeader
        title="Passkeys"
        description="Sign in with your fingerprint, face or device PIN instead of a password. Add one per device you use."
      />
      <div className="space-y-4">
        {remove.isError ? <Alert tone="error">{errorMessage(remove.error)}</Alert> : null}
        {passkeys.isPending ? <LoadingBlock label="Loading passkeys…" /> : null}
        {passkeys.isError ? (
          <Alert tone="error">
            {errorMessage(passkeys.error)}{" "}
            <Button variant="secondary" size="sm" onClick={() => void passkeys.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : null}
        {passkeys.isSuccess && passkeys.data.length === 0 ? (
          <p className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
            You have no passkeys yet.
          </p>
        ) : null}
        {passkeys.isSuccess && passkeys.data.length > 0 ? (
          <ul
            aria-label="Your passkeys"
            className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {passkeys.data.map((passkey) => (
              <li key={passkey.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-3 p-4">
                <div className="min-w-0 flex-1 basis-56">
                  <p className="font-medium break-words">{nameOf(passkey)}</p>
                  <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                    Added {formatDateTime(passkey.createdAt)}.{" "}
                    {passkey.lastUsedAt ? `Last used ${formatDateTime(passkey.lastUsedAt)}.` : "Never used to sign in."}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`Rename ${nameOf(passkey)}`}
                    onClick={() => setNaming({ kind: "rename", passkey })}
                  >
                    Rename
                  </Button>
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`Delete ${nameOf(passkey)}`}
                    onClick={() => setDeleting(passkey)}
                  >
                    Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        ) : null}
        {supported ? null : (
          <p id="passkeys-unsupported" className="text-sm text-zinc-600 dark:text-zinc-400">
            This browser cannot make passkeys. Use a recent browser on a device with a screen lock.
          </p>
        )}
        <div className="flex justify-end">
          <Button
            disabled={!supported}
            focusableWhenDisabled
            aria-describedby={supported ? undefined : "passkeys-unsupported"}
            onClick={() => setNaming({ kind: "add" })}
          >
            Add a passkey
          </Button>
        </div>
      </div>
      <Dialog
        open={naming !== null}
        onOpenChange={(open) => (open ? null : setNaming(null))}
        title={naming?.kind === "rename" ? `Rename ${nameOf(naming.passkey)}` : "Add a passkey"}
        description={
          naming?.kind === "rename"
            ? undefined
            : "Name it after the device or password manager that keeps it. Your browser asks to confirm next."
        }
      >
        {naming ? <PasskeyNameForm naming={naming} onDone={() => setNaming(null)} /> : null}
      </Dialog>
      <Dialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? null : setDeleting(null))}
        title={`Delete ${deleting ? nameOf(deleting) : ""}?`}
        description="You will no longer be able to sign in with this passkey. The device may still offer it: remove it there too."
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDeleting(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            isLoading={remove.isPending}
            onClick={() => {
              if (!deleting) return;
              remove.mutate({ id: deleting.id, name: nameOf(deleting) }, { onSettled: () => setDeleting(null) });
            }}
          >
            Delete passkey
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}

/** The name of a new passkey (then the browser's prompt) or a new name for one. */
function PasskeyNameForm({ naming, onDone }: { naming: Naming; onDone: () => void }) {
  const add = useAddPasskey();
  const rename = useRenamePasskey();
  const form = useZodForm(passkeyNameFormSchema, {
    defaultValues: { name: naming.kind === "rename" ? (naming.passkey.name ?? "") : "" },
  });
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async ({ name }) => {
    if (naming.kind === "rename") await rename.mutateAsync({ id: naming.passkey.id, name });
    else await add.mutateAsync({ name });
    onDone();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormErrorAlert message={form.formError} />
      <TextField label="Name" autoComplete="off" autoFocus placeholder="Work laptop" {...form.field("name")} />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {naming.kind === "rename" ? "Save name" : isSubmitting ? "Waiting for your browser…" : "Continue"}
        </Button>
      </div>
    </form>
  );
}

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { ReauthenticateInput } from "../../common/account.schemas";

type PasskeyAssertion = Extract<ReauthenticateInput, { passkey: unknown }>["passkey"];
import type { ReauthenticationMethods } from "../../common/error-codes";
import { api, apiCall } from "../lib/api-client";
import { errorMessage, unwrap } from "../lib/api-error";
import { authClient } from "../lib/auth-client";
import { useAppMeta } from "../lib/meta";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { Dialog, DialogActions } from "./ui/dialog";
import { TextField } from "./ui/text-field";

/**
 * The re-check a sensitive action asks for (web/lib/fresh-authentication.tsx): the account's password, a code of its
 * authenticator app or one of its passkeys makes the current session fresh again; an account with none signs in again
 * through its provider and comes back to this page, where the action can be taken again.
 */
export function ReauthenticateDialog({
  methods,
  onDone,
  onCancel,
}: {
  methods: ReauthenticationMethods;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [way, setWay] = useState<"password" | "code">(methods.password ? "password" : "code");
  const [value, setValue] = useState("");
  const recheck = useMutation({
    mutationFn: (json: ReauthenticateInput) => apiCall(api.reauthenticate.reauthenticate.$post({ json })),
    onSuccess: onDone,
    meta: { errorToast: false },
  });
  const canType = methods.password || methods.totp;
  const canConfirm = canType || methods.passkey;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (recheck.isPending) return;
    recheck.mutate(way === "password" ? { password: value } : { code: value.trim() });
  };
  const switchTo = (next: "password" | "code") => {
    setWay(next);
    setValue("");
    recheck.reset();
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onCancel())}
      title="Confirm it is you"
      description={
        canConfirm
          ? "For your security, this needs a recent sign-in. Confirm it is you to go on."
          : "For your security, this needs a recent sign-in."
      }
    >
      {canType ? (
        <form onSubmit={submit} className="space-y-4" noValidate>
          {way === "password" ? (
            <TextField
              key="password"
              label="Password"
              type="password"
              autoComplete="current-password"
              autoFocus
              value={value}
              onChange={(event) => setValue(event.target.value)}
              error={recheck.isError ? errorMessage(recheck.error) : undefined}
            />
          ) : (
            <TextField
              // Its own key: a new field that takes focus, not the password's field relabelled (keyboard users land
              // on it).
              key="code"
              label="Code from your authenticator app"
              inputMode="numeric"
              autoComplete="one-time-code"
              autoFocus
              maxLength={6}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              error={recheck.isError ? errorMessage(recheck.error) : undefined}
            />
          )}
          {methods.password && methods.totp ? (
            <Button type="button" variant="ghost" onClick={() => switchTo(way === "password" ? "code" : "password")}>
              {way === "password" ? "Use a code from your authenticator app" : "Use your password"}
            </Button>
          ) : null}
          {methods.passkey ? <PasskeyRecheck onDone={onDone} /> : null}
          <DialogActions onCancel={onCancel}>
            <Button type="submit" isLoading={recheck.isPending} disabled={value.trim() === ""}>
              Confirm
            </Button>
          </DialogActions>
        </form>
      ) : methods.passkey ? (
        <div className="space-y-4">
          <PasskeyRecheck onDone={onDone} />
          <DialogActions onCancel={onCancel}>{null}</DialogActions>
        </div>
      ) : (
        <SignInAgain providers={methods.providers} onCancel={onCancel} />
      )}
    </Dialog>
  );
}

/**
 * One of the account's passkeys instead (the browser's prompt lists them): the server's challenge, then its answer
 * to the re-check. Closing the prompt leaves the dialog as it was.
 */
function PasskeyRecheck({ onDone }: { onDone: () => void }) {
  const recheck = useMutation({
    mutationFn: async () => {
      const { promptedCredential } = await import("../lib/passkey-prompt");
      const passkey = (await promptedCredential()) as PasskeyAssertion | null;
      if (!passkey) return false;
      await apiCall(api.reauthenticate.reauthenticate.$post({ json: { passkey } }));
      return true;
    },
    onSuccess: (isRechecked) => (isRechecked ? onDone() : undefined),
    meta: { errorToast: false },
  });
  return (
    <div className="space-y-2">
      {recheck.isError ? <Alert tone="error">{errorMessage(recheck.error)}</Alert> : null}
      <Button
        type="button"
        variant="secondary"
        className="w-full"
        isLoading={recheck.isPending}
        onClick={() => recheck.mutate()}
      >
        Use a passkey
      </Button>
    </div>
  );
}

/**
 * For an account without a password, an authenticator app or a passkey: a new sign-in through its provider, back to
 * here.
 */
function SignInAgain({ providers, onCancel }: { providers: string[]; onCancel: () => void }) {
  const meta = useAppMeta();
  const available = (meta.data?.socialProviders ?? []).filter((provider) => providers.includes(provider.id));
  const signIn = useMutation({
    mutationFn: async (provider: string) =>
      unwrap(
        await authClient.signIn.social({
          provider,
          callbackURL: `${window.location.pathname}${window.location.search}`,
        }),
      ),
    meta: { errorToast: false },
  });
  return (
    <div className="space-y-4">
      {available.length > 0 ? (
        <p className="text-sm">Sign in again, then take the action once more.</p>
      ) : (
        <Alert tone="error">This session cannot confirm it is you. Sign out, sign in again, then try once more.</Alert>
      )}
      {signIn.isError ? <Alert tone="error">{errorMessage(signIn.error)}</Alert> : null}
      {available.map((provider) => (
        <Button
          key={provider.id}
          variant="secondary"
          className="w-full"
          isLoading={signIn.isPending && signIn.variables === provider.id}
          disabled={signIn.isPending || signIn.isSuccess}
          onClick={() => signIn.mutate(provider.id)}
        >
          Sign in again with {provider.name}
        </Button>
      ))}
      <DialogActions onCancel={onCancel} cancelLabel="Close">
        {null}
      </DialogActions>
    </div>
  );
}

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { ReauthenticateInput } from "../../common/account.schemas";
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
 * The re-check a sensitive action asks for (web/lib/fresh-authentication.tsx): the account's password, or a code of
 * its authenticator app, makes the current session fresh again; an account with neither signs in again through its
 * provider and comes back to this page, where the action can be taken again.
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
        canType
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
              // Its own key: a new field that takes focus, not the password's field relabelled (keyboard users land on it).
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
          <DialogActions onCancel={onCancel}>
            <Button type="submit" isLoading={recheck.isPending} disabled={value.trim() === ""}>
              Confirm
            </Button>
          </DialogActions>
        </form>
      ) : (
        <SignInAgain providers={methods.providers} onCancel={onCancel} />
      )}
    </Dialog>
  );
}

/** For an account without a password or an authenticator app: a new sign-in through its provider, back to here. */
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

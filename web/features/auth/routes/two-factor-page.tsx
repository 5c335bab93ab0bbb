import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { backupCodeSchema, totpCodeSchema } from "../../../../common/two-factor.schemas";
import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { ApiError, errorMessage } from "../../../lib/api-error";
import { useZodForm } from "../../../lib/form";
import { safeRedirect } from "../../../lib/session";
import {
  SIGN_IN_ENDED_CODES,
  secondFactorServerErrors,
  useVerifySecondFactor,
  type SecondFactorMethod,
} from "../api/two-factor";
import { usePasskeySignIn, type PasskeySignInOutcome } from "../api/passkey-sign-in";

/**
 * The second step of a password sign-in (/sign-in/two-factor): a code from the authenticator app, a backup code, or a
 * passkey.
 * Too many wrong codes end the sign-in; the page then says so and leads back to the password.
 */
export function TwoFactorPage({ redirect }: { redirect?: string }) {
  const [method, setMethod] = useState<SecondFactorMethod>("totp");
  const [ended, setEnded] = useState<string | null>(null);
  const isTotp = method === "totp";

  return (
    <AuthLayout
      title="Two-factor authentication"
      description={
        isTotp
          ? "Enter the 6-digit code your authenticator app shows for Atrium."
          : "Enter one of the backup codes you saved. Each code works once."
      }
      footer={
        <TextLink to="/sign-in" search={{ redirect }}>
          Back to sign in
        </TextLink>
      }
    >
      {ended ? (
        <div className="space-y-4">
          <Alert tone="error">{ended}</Alert>
          <TextLink to="/sign-in" search={{ redirect }}>
            Sign in again
          </TextLink>
        </div>
      ) : (
        <div className="space-y-4">
          {/* Keyed by method: each form starts empty, with its own field and checks. */}
          <CodeForm key={method} method={method} redirect={redirect} onEnded={setEnded} />
          <Button
            type="button"
            variant="ghost"
            className="w-full"
            onClick={() => setMethod(isTotp ? "backup-code" : "totp")}
          >
            {isTotp ? "Use a backup code" : "Use the authenticator app"}
          </Button>
          <PasskeyOption redirect={redirect} />
        </div>
      )}
    </AuthLayout>
  );
}

/** A passkey of the account instead of a code: it signs in on its own (a passkey is possession and a PIN or biometric). */
function PasskeyOption({ redirect }: { redirect?: string }) {
  const navigate = useNavigate();
  const passkey = usePasskeySignIn();
  const onSignedIn = (outcome: PasskeySignInOutcome) =>
    outcome === "signed-in" ? void navigate({ to: safeRedirect(redirect) }) : undefined;
  return (
    <>
      {passkey.error ? <Alert tone="error">{errorMessage(passkey.error)}</Alert> : null}
      <Button
        type="button"
        variant="secondary"
        className="w-full"
        isLoading={passkey.isPending}
        onClick={() => passkey.mutate({}, { onSuccess: onSignedIn })}
      >
        Use a passkey
      </Button>
    </>
  );
}

function CodeForm({
  method,
  redirect,
  onEnded,
}: {
  method: SecondFactorMethod;
  redirect?: string;
  onEnded: (message: string) => void;
}) {
  const navigate = useNavigate();
  const verify = useVerifySecondFactor();
  const form = useZodForm(method === "totp" ? totpCodeSchema : backupCodeSchema, {
    defaultValues: { code: "" },
    serverErrors: secondFactorServerErrors,
  });
  const isSubmitting = form.formState.isSubmitting;
  const onSubmit = form.submit(async ({ code }) => {
    try {
      await verify.mutateAsync({ method, code });
    } catch (error) {
      if (error instanceof ApiError && error.code && SIGN_IN_ENDED_CODES.has(error.code)) return onEnded(error.message);
      throw error;
    }
    await navigate({ to: safeRedirect(redirect) });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormErrorAlert message={form.formError} />
      {method === "totp" ? (
        <TextField
          label="Code"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={9}
          autoFocus
          {...form.field("code")}
        />
      ) : (
        <TextField
          label="Backup code"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          autoFocus
          {...form.field("code")}
        />
      )}
      <Button type="submit" className="w-full" isLoading={isSubmitting}>
        {isSubmitting ? "Checking…" : "Continue"}
      </Button>
    </form>
  );
}

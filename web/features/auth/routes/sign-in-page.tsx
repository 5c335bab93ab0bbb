import { useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useEffect, useEffectEvent, useState } from "react";
import { isEmailIdentifier, signInSchema } from "../../../../common/sign-in.schemas";
import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { noticeMessage, noticeTone } from "../../../lib/address-messages";
import { ApiError, errorMessage } from "../../../lib/api-error";
import { LoadingBlock } from "../../../components/ui/spinner";
import { useZodForm } from "../../../lib/form";
import { safeRedirect } from "../../../lib/session";
import { signInServerErrors, useSignIn } from "../api/auth";
import {
  cancelPasskeyAutofill,
  supportsPasskeyAutofill,
  usePasskeySignIn,
  type PasskeySignInOutcome,
} from "../api/passkey-sign-in";
import { SocialSignIn } from "../../../components/social-sign-in";

// "Continue with SSO" loads its form (and zod, which it validates with) when asked for: /sign-in's first load has a
// budget (e2e/first-load.ts), and most people sign in with a password or a passkey.
const SsoSignInForm = lazy(() =>
  import("../components/sso-sign-in-form").then(({ SsoSignInForm }) => ({ default: SsoSignInForm })),
);

/** A password sign-in refused because the person's organization requires SSO (server code `SSO_REQUIRED`). */
const isSsoRequired = (error: unknown) => error instanceof ApiError && error.code === "SSO_REQUIRED";

/** `notice` is the address's code (web/lib/address-messages.ts): only a listed one shows, in its own words. */
export function SignInPage({ redirect, notice }: { redirect?: string; notice?: string }) {
  const navigate = useNavigate();
  const signIn = useSignIn();
  const form = useZodForm(signInSchema, {
    defaultValues: { identifier: "", password: "", rememberMe: true },
    serverErrors: signInServerErrors,
  });
  const target = safeRedirect(redirect);
  const isSubmitting = form.formState.isSubmitting;
  const noticeText = noticeMessage(notice);
  // The SSO form, opened by "Continue with SSO" or by a password sign-in refused because the person's organization
  // requires SSO; with the e-mail already typed, if one was.
  // `isRequired` carries the refusal's details (which organization), read by the form.
  const [sso, setSso] = useState<{ email: string; isRequired: unknown } | null>(null);
  const openSso = (isRequired: unknown) => {
    const identifier = form.watch("identifier").trim();
    setSso({ email: isEmailIdentifier(identifier) ? identifier : "", isRequired });
  };

  // Two requests of their own: the autofill waits in the background while the button may start another.
  const passkeyAutofill = usePasskeySignIn();
  const passkeyButton = usePasskeySignIn();
  const passkeyError = passkeyButton.error ?? passkeyAutofill.error;
  const afterPasskey = (outcome: PasskeySignInOutcome) =>
    outcome === "signed-in" ? void navigate({ to: target }) : undefined;
  const { mutate: startAutofill } = passkeyAutofill;
  // An effect event: the navigation reads the latest target without restarting the autofill request.
  const afterAutofill = useEffectEvent(afterPasskey);
  useEffect(() => {
    let active = true;
    // Where the browser supports it, passkeys show among the identifier field's suggestions; picking one signs in.
    void supportsPasskeyAutofill().then((supported) => {
      if (supported && active) startAutofill({ autoFill: true }, { onSuccess: (outcome) => afterAutofill(outcome) });
    });
    return () => {
      active = false;
      cancelPasskeyAutofill();
    };
  }, [startAutofill]);

  const onSubmit = form.submit(async (values) => {
    let answer: Awaited<ReturnType<typeof signIn.mutateAsync>>;
    try {
      answer = await signIn.mutateAsync({ ...values, callbackURL: target });
    } catch (error) {
      // Not an error to fix in this form: the way in is the organization's identity provider.
      if (isSsoRequired(error)) return openSso((error as ApiError).details ?? true);
      throw error;
    }
    // An account with a second factor: no session yet, the code comes next (better-auth's two-factor answer, checked
    // here rather than through the two-factor module, which would add to this first page's JavaScript).
    if ("twoFactorRedirect" in answer && answer.twoFactorRedirect === true)
      return navigate({ to: "/sign-in/two-factor", search: { redirect } });
    await navigate({ to: target });
  });

  return (
    <AuthLayout
      title="Sign in"
      description="Welcome back. Sign in with your e-mail address or your username."
      footer={
        <>
          New here?{" "}
          <TextLink to="/sign-up" search={{ redirect }}>
            Create an account
          </TextLink>
        </>
      }
    >
      {sso ? (
        <Suspense fallback={<LoadingBlock label="Loading single sign-on…" />}>
          <SsoSignInForm {...sso} callbackURL={target} onCancel={() => setSso(null)} />
        </Suspense>
      ) : null}
      {/* Hidden rather than removed while the SSO form shows: what was typed stays, and so does the passkey
          autofill, which is bound to the identifier field. */}
      <div hidden={sso !== null}>
        <SocialSignIn callbackURL={target} />
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {noticeText ? <Alert tone={noticeTone(notice)}>{noticeText}</Alert> : null}
          <FormErrorAlert message={form.formError} />
          <TextField
            label="E-mail or username"
            autoComplete="username webauthn"
            autoFocus
            {...form.field("identifier")}
          />
          <TextField label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
          {/* After the password in the tab order, so Tab goes from the identifier straight to the password. */}
          <div className="flex items-center justify-between gap-4 text-sm">
            <label className="flex items-center gap-2 text-zinc-700 dark:text-zinc-300">
              <input
                type="checkbox"
                {...form.register("rememberMe")}
                className="size-4 rounded border-zinc-300 accent-brand-600"
              />
              Keep me signed in
            </label>
            <TextLink to="/forgot-password">Forgot password?</TextLink>
          </div>
          <Button type="submit" className="w-full" isLoading={isSubmitting}>
            {isSubmitting ? "Signing in…" : "Sign in"}
          </Button>
        </form>
        <div className="mt-5 space-y-3">
          <div className="flex items-center gap-3 text-xs text-zinc-500 dark:text-zinc-400" aria-hidden="true">
            <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
            or
            <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
          </div>
          {passkeyError ? <Alert tone="error">{errorMessage(passkeyError)}</Alert> : null}
          <Button
            type="button"
            variant="secondary"
            className="w-full"
            isLoading={passkeyButton.isPending}
            onClick={() => passkeyButton.mutate({}, { onSuccess: afterPasskey })}
          >
            Sign in with a passkey
          </Button>
          <Button type="button" variant="secondary" className="w-full" onClick={() => openSso(false)}>
            Continue with SSO
          </Button>
        </div>
      </div>
    </AuthLayout>
  );
}

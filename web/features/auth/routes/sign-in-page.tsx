import { useNavigate } from "@tanstack/react-router";
import { signInSchema } from "../../../../common/sign-in.schemas";
import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { noticeMessage, noticeTone } from "../../../lib/address-messages";
import { useZodForm } from "../../../lib/form";
import { safeRedirect } from "../../../lib/session";
import { signInServerErrors, useSignIn } from "../api/auth";
import { SocialSignIn } from "../../../components/social-sign-in";

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

  const onSubmit = form.submit(async (values) => {
    await signIn.mutateAsync({ ...values, callbackURL: target });
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
      <SocialSignIn callbackURL={target} />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {noticeText ? <Alert tone={noticeTone(notice)}>{noticeText}</Alert> : null}
        <FormErrorAlert message={form.formError} />
        <TextField label="E-mail or username" autoComplete="username" autoFocus {...form.field("identifier")} />
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
    </AuthLayout>
  );
}

import { useNavigate } from "@tanstack/react-router";
import { isEmailIdentifier, signInSchema } from "../../../../common/account.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { ApiError, errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useForm } from "../../../lib/use-form";
import { safeRedirect, useRefreshSession } from "../api/session";
import { AuthLayout, TextLink } from "../components/auth-layout";
import { SocialSignIn } from "../components/social-sign-in";

export function SignInPage({ redirect, notice }: { redirect?: string; notice?: string }) {
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const form = useForm(signInSchema, { identifier: "", password: "", rememberMe: true });
  const target = safeRedirect(redirect);

  const onSubmit = form.handleSubmit(async ({ identifier, password, rememberMe }) => {
    try {
      const callbackURL = target;
      unwrap(
        isEmailIdentifier(identifier)
          ? await authClient.signIn.email({ email: identifier, password, rememberMe, callbackURL })
          : await authClient.signIn.username({ username: identifier, password, rememberMe, callbackURL }),
      );
      await refreshSession({ clearEverything: true });
      await navigate({ to: target });
    } catch (error) {
      if (error instanceof ApiError && error.code === "EMAIL_NOT_VERIFIED") {
        form.setServerError(`Verify your e-mail address first. We just sent a new link to your inbox.`);
      } else {
        form.setServerError(errorMessage(error));
      }
    }
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
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        <TextField label="E-mail or username" autoComplete="username" autoFocus {...form.field("identifier")} />
        <TextField label="Password" type="password" autoComplete="current-password" {...form.field("password")} />
        {/* After the password in the tab order, so Tab goes from the identifier straight to the password. */}
        <div className="flex items-center justify-between gap-4 text-sm">
          <label className="flex items-center gap-2 text-zinc-700 dark:text-zinc-300">
            <input
              type="checkbox"
              checked={form.values.rememberMe ?? true}
              onChange={(event) => form.setValues({ ...form.values, rememberMe: event.target.checked })}
              className="size-4 rounded border-zinc-300 accent-brand-600"
            />
            Keep me signed in
          </label>
          <TextLink to="/forgot-password">Forgot password?</TextLink>
        </div>
        <Button type="submit" className="w-full" isLoading={form.isSubmitting}>
          {form.isSubmitting ? "Signing in…" : "Sign in"}
        </Button>
      </form>
    </AuthLayout>
  );
}

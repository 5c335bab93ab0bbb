import { useNavigate } from "@tanstack/react-router";
import { signUpSchema } from "../../../../common/account.schemas";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { ApiError, errorMessage, unwrap, USERNAME_TAKEN_MESSAGE } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useForm } from "../../../lib/use-form";
import { safeRedirect } from "../api/session";
import { AuthLayout, TextLink } from "../components/auth-layout";
import { SocialSignIn } from "../components/social-sign-in";
import { UsernameAvailability, useUsernameAvailability } from "../components/username-availability";

const USERNAME_CODES = new Set(["USERNAME_IS_ALREADY_TAKEN", "USERNAME_TOO_SHORT", "USERNAME_TOO_LONG", "INVALID_USERNAME"]);

export function SignUpPage({ email, redirect }: { email?: string; redirect?: string }) {
  const navigate = useNavigate();
  const form = useForm(signUpSchema, { name: "", email: email ?? "", username: "", password: "" });
  const availability = useUsernameAvailability(form.values.username ?? "");
  const target = safeRedirect(redirect);

  const onSubmit = form.handleSubmit(async ({ name, email: address, username, password }) => {
    if (availability === "taken") {
      form.setServerError(USERNAME_TAKEN_MESSAGE, "username");
      return;
    }
    try {
      unwrap(
        await authClient.signUp.email({
          name,
          email: address,
          password,
          ...(username ? { username } : {}),
          callbackURL: target,
        }),
      );
      await navigate({ to: "/check-email", search: { email: address } });
    } catch (error) {
      if (error instanceof ApiError && error.code && USERNAME_CODES.has(error.code)) form.setServerError(error.message, "username");
      else if (error instanceof ApiError && error.code?.startsWith("PASSWORD")) form.setServerError(error.message, "password");
      else form.setServerError(errorMessage(error));
    }
  });

  return (
    <AuthLayout
      title="Create your account"
      description="It takes a minute. We will send you a link to verify your e-mail address."
      footer={
        <>
          Already have an account?{" "}
          <TextLink to="/sign-in" search={{ redirect }}>
            Sign in
          </TextLink>
        </>
      }
    >
      <SocialSignIn callbackURL={target} />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        <TextField label="Name" autoComplete="name" autoFocus {...form.field("name")} />
        <TextField label="E-mail" type="email" autoComplete="email" {...form.field("email")} />
        <TextField
          label="Username (optional)"
          autoComplete="username"
          description={<UsernameAvailability state={availability} />}
          {...form.field("username")}
        />
        <TextField label="Password" type="password" autoComplete="new-password" description="8 to 128 characters." {...form.field("password")} />
        <Button type="submit" className="w-full" isLoading={form.isSubmitting}>
          {form.isSubmitting ? "Creating account…" : "Create account"}
        </Button>
      </form>
    </AuthLayout>
  );
}

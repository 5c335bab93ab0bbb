import { useNavigate } from "@tanstack/react-router";
import { signUpSchema } from "../../../../common/account.schemas";
import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { UsernameAvailability } from "../../../components/username-availability";
import { USERNAME_TAKEN_MESSAGE } from "../../../lib/error-sentences";
import { useZodForm } from "../../../lib/form";
import { safeRedirect } from "../../../lib/session";
import { useUsernameAvailability } from "../../../lib/use-username-availability";
import { signUpServerErrors, useSignUp } from "../api/auth";
import { SocialSignIn } from "../../../components/social-sign-in";

export function SignUpPage({ email, redirect }: { email?: string; redirect?: string }) {
  const navigate = useNavigate();
  const signUp = useSignUp();
  const form = useZodForm(signUpSchema, {
    defaultValues: { name: "", email: email ?? "", username: "", password: "" },
    serverErrors: signUpServerErrors,
  });
  const availability = useUsernameAvailability(form.watch("username") ?? "");
  const target = safeRedirect(redirect);
  const isSubmitting = form.formState.isSubmitting;

  const onSubmit = form.submit(async (values) => {
    if (availability === "taken") return form.setServerError(USERNAME_TAKEN_MESSAGE, "username");
    await signUp.mutateAsync({ ...values, callbackURL: target });
    await navigate({ to: "/check-email", search: { email: values.email } });
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
        <FormErrorAlert message={form.formError} />
        <TextField label="Name" autoComplete="name" autoFocus {...form.field("name")} />
        <TextField label="E-mail" type="email" autoComplete="email" {...form.field("email")} />
        <TextField
          label="Username (optional)"
          autoComplete="username"
          description={<UsernameAvailability state={availability} />}
          {...form.field("username")}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          description="8 to 128 characters."
          {...form.field("password")}
        />
        <Button type="submit" className="w-full" isLoading={isSubmitting}>
          {isSubmitting ? "Creating account…" : "Create account"}
        </Button>
      </form>
    </AuthLayout>
  );
}

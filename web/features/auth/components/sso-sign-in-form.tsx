import { useState } from "react";
import { ssoSignInSchema } from "../../../../common/sso.schemas";
import { FormErrorAlert } from "../../../components/form-error-alert";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { TextField } from "../../../components/ui/text-field";
import { useZodForm } from "../../../lib/form";
import { startSsoSignIn } from "../api/sso-sign-in";

/**
 * The work e-mail step of "Continue with SSO" (loaded when asked for, so /sign-in's first load does not carry it or
 * zod). After success the browser is on its way to the identity provider: the button stays busy until the page goes.
 */
export function SsoSignInForm({
  email,
  isRequired,
  callbackURL,
  onCancel,
}: {
  email?: string;
  /**
   * A password sign-in was refused because the person's organization requires SSO (`SSO_REQUIRED`): true, or the
   * refusal's details, which name the organization (`{ organizationSlug, organizationName }`).
   */
  isRequired?: unknown;
  callbackURL: string;
  onCancel: () => void;
}) {
  const [isLeaving, setLeaving] = useState(false);
  const [isStarting, setStarting] = useState(false);
  const form = useZodForm(ssoSignInSchema, {
    defaultValues: { email: email ?? "" },
    serverErrors: { "404": { message: NO_CONNECTION }, "401": { message: NOT_READY } },
  });
  const onSubmit = form.submit(async (values) => {
    await startSsoSignIn({ email: values.email, callbackURL });
    setLeaving(true);
  });
  const isBusy = form.formState.isSubmitting || isStarting || isLeaving;
  const organization = requiringOrganization(isRequired);
  // A username sign-in has no address to find the provider by: the refusal named the organization.
  async function continueToOrganization(slug: string) {
    setStarting(true);
    try {
      await startSsoSignIn({ organizationSlug: slug, callbackURL });
      setLeaving(true);
    } catch (error) {
      form.setServerError(error);
    } finally {
      setStarting(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-labelledby="sso-sign-in-title">
      <div>
        <h2 id="sso-sign-in-title" className="text-base font-semibold">
          Single sign-on
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Enter your work e-mail: we send you to your organization&apos;s sign-in page.
        </p>
      </div>
      {isRequired ? (
        <Alert tone="info" title="Your organization signs you in with SSO">
          Its owners ask members to sign in through the organization&apos;s identity provider, not with a password.
        </Alert>
      ) : null}
      <FormErrorAlert message={form.formError} />
      {organization && !email ? (
        <Button
          type="button"
          className="w-full"
          isLoading={isBusy}
          onClick={() => void continueToOrganization(organization.slug)}
        >
          Continue to {organization.name}&apos;s sign-in
        </Button>
      ) : null}
      <TextField label="Work e-mail" type="email" autoComplete="email" autoFocus {...form.field("email")} />
      <Button type="submit" className="w-full" isLoading={isBusy}>
        {isBusy ? "Redirecting…" : "Continue"}
      </Button>
      <Button type="button" variant="ghost" className="w-full" onClick={onCancel} disabled={isBusy}>
        Sign in with a password instead
      </Button>
    </form>
  );
}

/** The organization an `SSO_REQUIRED` refusal names, if its details do. */
function requiringOrganization(details: unknown): { slug: string; name: string } | undefined {
  if (typeof details !== "object" || details === null) return undefined;
  const { organizationSlug, organizationName } = details as Record<string, unknown>;
  if (typeof organizationSlug !== "string" || !organizationSlug) return undefined;
  return { slug: organizationSlug, name: typeof organizationName === "string" ? organizationName : organizationSlug };
}

const NO_CONNECTION =
  "No organization signs in with SSO for this e-mail domain. Check the address, or sign in with your password.";
const NOT_READY =
  "Your organization's single sign-on is not ready yet: its domain is not verified. " +
  "Ask its administrator, or sign in with your password.";

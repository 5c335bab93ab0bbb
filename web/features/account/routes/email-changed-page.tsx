import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { Alert } from "../../../components/ui/alert";
import { safeRedirect } from "../../../lib/session";

/** What the server's `error=` means for a link that confirms a new address, in words a person can act on. */
function failureOf(error: string): string {
  if (error === "INVALID_USER") {
    return (
      "This link confirms the address of another account than the one signed in here. " +
      "Sign out, then open the link again."
    );
  }
  // INVALID_TOKEN (already used, or the address changed since), TOKEN_EXPIRED, USER_NOT_FOUND.
  return (
    "That link is invalid, has expired or was already used. " +
    "If your address has not changed, ask for a new link in your account settings."
  );
}

/**
 * Where the link mailed to a new e-mail address lands (the server points it here, server/auth/change-email.ts):
 * it says the address changed, or why the link did not work, then offers the way on (`next`).
 */
export function EmailChangedPage({ next, error }: { next?: string; error?: string }) {
  if (error) {
    return (
      <AuthLayout title="This link does not work">
        <Alert tone="error">{failureOf(error)}</Alert>
        <p className="mt-4 text-sm">
          <TextLink to="/account">Account settings</TextLink>
        </p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="E-mail address changed">
      <Alert tone="success">
        Your e-mail address was changed. Sign in with the new address from now on; your sessions stay signed in.
      </Alert>
      <p className="mt-4 text-sm">
        <TextLink to={safeRedirect(next)}>Continue</TextLink>
      </p>
    </AuthLayout>
  );
}

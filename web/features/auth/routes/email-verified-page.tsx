import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { Alert } from "../../../components/ui/alert";
import { safeRedirect } from "../../../lib/session";

/** What the server's `error=` means for a verification link, in words a person can act on. */
function failureOf(error: string): { message: string; next: string } {
  if (error === "INVALID_USER") {
    return {
      message: "This link verifies another account than the one signed in here.",
      next: "Sign out, then open the link again, or sign in to the account it was sent to.",
    };
  }
  // INVALID_TOKEN, TOKEN_EXPIRED, USER_NOT_FOUND: the same advice, a fresh link.
  return {
    message: "That link is invalid or has expired. Ask for a new one.",
    next: "Verification links work for 1 hour. Sign in: while your address is not verified, signing in sends you a new link.",
  };
}

/**
 * Where every verification link lands (the server points it here, server/auth/account-rules.ts): it says the address
 * is verified and offers the way on to where the link was going (`next`), or why the link did not work.
 */
export function EmailVerifiedPage({ next, error }: { next?: string; error?: string }) {
  if (error) {
    const failure = failureOf(error);
    return (
      <AuthLayout title="This link does not work" description={failure.next}>
        <Alert tone="error">{failure.message}</Alert>
        <p className="mt-4 text-sm">
          <TextLink to="/sign-in">Sign in</TextLink>
        </p>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="E-mail address verified" description="Thank you: your account is confirmed.">
      <Alert tone="success">Your e-mail address is verified.</Alert>
      <p className="mt-4 text-sm">
        <TextLink to={safeRedirect(next)}>Continue</TextLink>
      </p>
    </AuthLayout>
  );
}

import { useNavigate } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { Alert } from "../../../components/ui/alert";
import { toast } from "../../../components/ui/toast";
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

/** What the person reads once the link worked, in a toast on the page the link was going to. */
export const EMAIL_VERIFIED_MESSAGE = "Your e-mail address is verified.";

/**
 * Where every verification link lands (the server points it here, server/auth/account-rules.ts). A link that worked
 * goes straight on to where it was going (`next`: the home page, an invitation) with a toast that says the address
 * is verified; one that did not work says why and what to do.
 */
export function EmailVerifiedPage({ next, error }: { next?: string; error?: string }) {
  const navigate = useNavigate();
  const announced = useRef(false);
  useEffect(() => {
    if (error || announced.current) return;
    announced.current = true;
    toast.success(EMAIL_VERIFIED_MESSAGE);
    void navigate({ to: safeRedirect(next), replace: true });
  }, [error, navigate, next]);

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
    <AuthLayout title="E-mail address verified">
      <Alert tone="success">{EMAIL_VERIFIED_MESSAGE}</Alert>
    </AuthLayout>
  );
}

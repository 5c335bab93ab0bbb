import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";

/** better-auth's SSO plugin answers a sign-in with the identity provider's address to go to. */
type SsoSignInAnswer = { url: string; redirect: boolean };

/**
 * "Continue with SSO": better-auth's SSO plugin finds the organization's identity provider from the e-mail's domain
 * (or the organization's slug, which an `SSO_REQUIRED` refusal names) and answers with its sign-in address; the
 * browser goes there. Coming back, a successful sign-in lands on `callbackURL`, a failed one on /auth/error, which
 * says why.
 *
 * A plain function rather than a query mutation, and called through the client's fetch rather than the SSO plugin's
 * client (which adds nothing but types): either would pull code into /sign-in's first load, which has a budget.
 */
export async function startSsoSignIn(
  input: ({ email: string } | { organizationSlug: string }) & { callbackURL: string },
): Promise<void> {
  const answer = unwrap(
    await authClient.$fetch<SsoSignInAnswer>("/sign-in/sso", {
      method: "POST",
      body: { ...input, errorCallbackURL: "/auth/error" },
    }),
  );
  window.location.assign(answer.url);
}

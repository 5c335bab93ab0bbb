import { useMutation } from "@tanstack/react-query";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";

/** better-auth's SSO plugin answers a sign-in with the identity provider's address to go to. */
type SsoSignInAnswer = { url: string; redirect: boolean };

/**
 * "Continue with SSO": better-auth's SSO plugin finds the organization's identity provider from the e-mail's domain
 * and answers with its sign-in address; the browser goes there. Coming back, a successful sign-in lands on
 * `callbackURL`, a failed one on /auth/error, which says why.
 */
export function useSsoSignIn() {
  return useMutation({
    mutationFn: async ({ email, callbackURL }: { email: string; callbackURL: string }) => {
      // Called through the client's fetch: the SSO plugin's client adds nothing but types, and /sign-in's first
      // load carries the client (the passkey autofill), so it stays out of it.
      const answer = unwrap(
        await authClient.$fetch<SsoSignInAnswer>("/sign-in/sso", {
          method: "POST",
          body: { email, callbackURL, errorCallbackURL: "/auth/error" },
        }),
      );
      window.location.assign(answer.url);
      return answer;
    },
    meta: { errorToast: false },
  });
}

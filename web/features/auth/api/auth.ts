import { useMutation } from "@tanstack/react-query";
import type { SignUpInput } from "../../../../common/account.schemas";
import { isEmailIdentifier, type SignInInput } from "../../../../common/sign-in.schemas";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useRefreshSession } from "../../../lib/session";

/** Every form of this feature shows its errors itself (inline), so none of these mutations raises an error toast. */
const inline = { errorToast: false } as const;

/** Signs in with an e-mail or a username (an at-sign decides which), then reloads the session from scratch. */
export function useSignIn() {
  const refreshSession = useRefreshSession();
  return useMutation({
    mutationFn: async ({ identifier, password, rememberMe, callbackURL }: SignInInput & { callbackURL: string }) =>
      unwrap(
        isEmailIdentifier(identifier)
          ? await authClient.signIn.email({ email: identifier, password, rememberMe, callbackURL })
          : await authClient.signIn.username({ username: identifier, password, rememberMe, callbackURL }),
      ),
    onSuccess: () => refreshSession({ clearEverything: true }),
    meta: inline,
  });
}

export function useSignUp() {
  return useMutation({
    mutationFn: async ({ name, email, username, password, callbackURL }: SignUpInput & { callbackURL: string }) =>
      unwrap(await authClient.signUp.email({ name, email, password, ...(username ? { username } : {}), callbackURL })),
    meta: inline,
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: async ({ email }: { email: string }) =>
      unwrap(await authClient.requestPasswordReset({ email, redirectTo: "/reset-password" })),
    meta: inline,
  });
}

/** Sets the password from a mailed link; every session is signed out, this browser's included if it had one. */
export function useResetPassword() {
  const refreshSession = useRefreshSession();
  return useMutation({
    mutationFn: async ({ newPassword, token }: { newPassword: string; token: string }) =>
      unwrap(await authClient.resetPassword({ newPassword, token })),
    onSuccess: () => refreshSession({ clearEverything: true }),
    meta: inline,
  });
}

export function useSendVerificationEmail() {
  return useMutation({
    mutationFn: async ({ email }: { email: string }) =>
      unwrap(await authClient.sendVerificationEmail({ email, callbackURL: "/" })),
    meta: inline,
  });
}

/** Where sign-up's server errors go: username and password complaints on their fields, the rest above the form. */
export const signUpServerErrors = {
  USERNAME_IS_ALREADY_TAKEN: "username",
  USERNAME_TOO_SHORT: "username",
  USERNAME_TOO_LONG: "username",
  INVALID_USERNAME: "username",
  "PASSWORD*": "password",
} as const;

/** Sign-in keeps every error above the form (saying which field was wrong would tell whether an account exists). */
export const signInServerErrors = {
  EMAIL_NOT_VERIFIED: { message: "Verify your e-mail address first. We just sent a new link to your inbox." },
} as const;

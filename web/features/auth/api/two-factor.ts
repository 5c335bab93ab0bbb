import { useMutation } from "@tanstack/react-query";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useRefreshSession } from "../../../lib/session";

export type SecondFactorMethod = "totp" | "backup-code";

/** The second step of a sign-in: a code from the authenticator app or a backup code opens the session. */
export function useVerifySecondFactor() {
  const refreshSession = useRefreshSession();
  return useMutation({
    mutationFn: async ({ method, code }: { method: SecondFactorMethod; code: string }) =>
      unwrap(
        method === "totp"
          ? await authClient.twoFactor.verifyTotp({ code })
          : await authClient.twoFactor.verifyBackupCode({ code }),
      ),
    onSuccess: () => refreshSession({ clearEverything: true }),
    meta: { errorToast: false },
  });
}

/**
 * The refusals that end the sign-in: too many wrong codes in it, or for the account (locked for a while: its sign-in
 * waiting for a code expires sooner), or no sign-in waiting (ended, expired, never started).
 */
export const SIGN_IN_ENDED_CODES: ReadonlySet<string> = new Set([
  "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
  "ACCOUNT_TEMPORARILY_LOCKED",
  "INVALID_TWO_FACTOR_COOKIE",
]);

/** A wrong code goes on the code field. */
export const secondFactorServerErrors = { INVALID_CODE: "code", INVALID_BACKUP_CODE: "code" } as const;

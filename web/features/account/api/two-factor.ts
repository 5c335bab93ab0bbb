import { useMutation } from "@tanstack/react-query";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useRequireFresh } from "../../../lib/fresh-authentication";
import { useRefreshSession } from "../../../lib/session";

/** The forms of the Security page show their errors themselves. */
const inline = { errorToast: false } as const;

/** Starts enrolment: the server answers the authenticator's URI and the backup codes; it is on once a code confirms. */
export function useEnableTwoFactor() {
  return useMutation({
    mutationFn: async ({ password }: { password: string }) =>
      unwrap(await authClient.twoFactor.enable({ password })) as { totpURI: string; backupCodes: string[] },
    meta: inline,
  });
}

/** Confirms enrolment with the first code; the server replaces the session, which is read again. */
export function useConfirmTwoFactor() {
  const refreshSession = useRefreshSession();
  return useMutation({
    mutationFn: async ({ code }: { code: string }) => unwrap(await authClient.twoFactor.verifyTotp({ code })),
    onSuccess: () => refreshSession(),
    meta: { ...inline, successMessage: "Two-factor authentication is on" },
  });
}

/** New backup codes; the old ones stop working. */
export function useRegenerateBackupCodes() {
  return useMutation({
    mutationFn: async ({ password }: { password: string }) =>
      unwrap(await authClient.twoFactor.generateBackupCodes({ password })) as { backupCodes: string[] },
    meta: inline,
  });
}

/** Turns the second factor off: a sensitive action, so a session older than 10 minutes re-checks first. */
export function useDisableTwoFactor() {
  const refreshSession = useRefreshSession();
  const requireFresh = useRequireFresh();
  return useMutation({
    mutationFn: ({ password }: { password: string }) =>
      requireFresh(async () => unwrap(await authClient.twoFactor.disable({ password }))),
    onSuccess: () => refreshSession(),
    meta: { ...inline, successMessage: "Two-factor authentication is off" },
  });
}

/** Where the Security forms' server errors go: a wrong password or code on its field, the rest above the form. */
export const passwordServerErrors = {
  INVALID_PASSWORD: { field: "password", message: "That password is not right." },
} as const;
export const codeServerErrors = { INVALID_CODE: "code" } as const;

/** The secret an authenticator app reads from the URI, in groups of four for typing it by hand. */
export function totpKeyOf(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get("secret") ?? "";
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

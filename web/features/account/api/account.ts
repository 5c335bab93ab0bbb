import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { api, apiCall } from "../../../lib/api-client";
import type { ChangeEmailInput, ProfileInput } from "../../../../common/account.schemas";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useRequireFresh } from "../../../lib/fresh-authentication";
import { useRefreshSession } from "../../../lib/session";

/** Saves name, avatar and (when it changed) username, then reloads the session so the header shows them. */
export function useUpdateProfile() {
  const refreshSession = useRefreshSession();
  return useMutation({
    mutationFn: async ({ name, image, username, currentUsername }: ProfileInput & { currentUsername: string }) => {
      const usernameChanged = (username ?? "") !== currentUsername;
      return unwrap(
        await authClient.updateUser({
          name,
          image: image ? image : null,
          ...(usernameChanged && username ? { username, displayUsername: username } : {}),
        }),
      );
    },
    onSuccess: () => refreshSession(),
    meta: { successMessage: "Profile saved", errorToast: false },
  });
}

/** Where the confirmation link of a new e-mail address goes on to, after the page that says the address changed. */
const AFTER_EMAIL_CHANGE = "/account";

/**
 * Asks to change the e-mail address: the server mails a link to the new address and changes nothing until it is
 * opened. It answers the same whether or not another account has the address.
 */
export function useChangeEmail() {
  const requireFresh = useRequireFresh();
  return useMutation({
    mutationFn: ({ newEmail }: ChangeEmailInput) =>
      requireFresh(async () => unwrap(await authClient.changeEmail({ newEmail, callbackURL: AFTER_EMAIL_CHANGE }))),
    meta: { errorToast: false },
  });
}

/** Changes the password and signs out every other session. */
export function useChangePassword() {
  const requireFresh = useRequireFresh();
  return useMutation({
    mutationFn: ({ currentPassword, newPassword }: { currentPassword: string; newPassword: string }) =>
      requireFresh(async () =>
        unwrap(await authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions: true })),
      ),
    meta: { successMessage: "Password changed. Your other sessions were signed out.", errorToast: false },
  });
}

/** Deletes the account, then forgets everything cached about it. */
export function useDeleteAccount() {
  const refreshSession = useRefreshSession();
  const requireFresh = useRequireFresh();
  return useMutation({
    mutationFn: ({ password }: { password?: string }) =>
      requireFresh(async () => unwrap(await authClient.deleteUser(password ? { password } : {}))),
    onSuccess: () => refreshSession({ clearEverything: true }),
    meta: { errorToast: false },
  });
}

/** What deleting the account would do to its organizations: the ones that go with it, the ones it must hand over. */
export const deletionPreviewQuery = queryOptions({
  queryKey: ["account", "deletion-preview"],
  queryFn: () => apiCall(api.account["deletion-preview"].$get()),
  // Read when the confirmation opens: memberships may have changed since the page loaded.
  staleTime: 0,
});

export function useDeletionPreview(isEnabled: boolean) {
  return useQuery({ ...deletionPreviewQuery, enabled: isEnabled });
}

/** Where the account forms' server errors go (anything else is shown above the form). */
export const profileServerErrors = { "422": "username" } as const;
export const changeEmailServerErrors = { EMAIL_UNCHANGED: "newEmail" } as const;
export const changePasswordServerErrors = {
  INVALID_PASSWORD: { field: "currentPassword", message: "That is not your current password." },
  PASSWORD_UNCHANGED: "newPassword",
} as const;
export const deleteAccountServerErrors = {
  INVALID_PASSWORD: { field: "password", message: "That password is not right." },
} as const;

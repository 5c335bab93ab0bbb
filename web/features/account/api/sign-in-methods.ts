import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, apiCall } from "../../../lib/api-client";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";

/** A way to sign in: the password (`credential`) or a provider's identity, with the e-mail the provider last asserted. */
export type SignInMethod = { id: string; providerId: string; email: string | null; createdAt: Date };

export const PASSWORD_PROVIDER = "credential";

export const signInMethodsQuery = queryOptions({
  queryKey: ["account", "sign-in-methods"],
  queryFn: async (): Promise<SignInMethod[]> =>
    unwrap(await authClient.listAccounts()).map((account) => ({
      id: account.id,
      providerId: account.providerId,
      // The server adds the provider's e-mail to each account (server/auth/social-sign-in.ts).
      email: "email" in account && typeof account.email === "string" ? account.email : null,
      createdAt: new Date(account.createdAt),
    })),
});

export function useSignInMethods() {
  return useQuery(signInMethodsQuery);
}

/** Whether the signed-in user has a password (undefined while loading). */
export function useHasPassword(): boolean | undefined {
  const methods = useSignInMethods();
  return methods.data?.some((method) => method.providerId === PASSWORD_PROVIDER);
}

/** Starts connecting a provider: the browser goes to the provider and comes back to the sign-in methods page. */
export function useConnectProvider() {
  return useMutation({
    mutationFn: async ({ provider }: { provider: string }) =>
      unwrap(
        await authClient.linkSocial({
          provider,
          callbackURL: `/account/sign-in-methods?connected=${encodeURIComponent(provider)}`,
        }),
      ),
    meta: { errorToast: false },
  });
}

export function useDisconnectProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ accountId }: { accountId: string; name: string }) =>
      unwrap(await authClient.unlinkAccount({ accountId })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signInMethodsQuery.queryKey }),
    meta: { successMessage: (_data: unknown, { name }: { name: string }) => `${name} disconnected`, errorToast: false },
  });
}

/**
 * Mails the user a link to set a password (the password-reset link, worded for a first password), which opens
 * /account/set-password rather than the reset page: setting a first password keeps the session.
 */
export function useSendSetPasswordLink() {
  return useMutation({
    mutationFn: async ({ email }: { email: string }) =>
      unwrap(await authClient.requestPasswordReset({ email, redirectTo: "/account/set-password" })),
    meta: { errorToast: false },
  });
}

/** Sets the first password with the mailed link's token; the session stays signed in. */
export function useSetFirstPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (json: { token: string; newPassword: string }) =>
      apiCall(api.firstPassword["first-password"].$post({ json })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: signInMethodsQuery.queryKey }),
    meta: { successMessage: "Your password is set.", errorToast: false },
  });
}

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useRefreshSession } from "../../../lib/session";

export type AdminUser = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image?: string | null;
  username?: string | null;
  role?: string | null;
  banned?: boolean | null;
  banReason?: string | null;
  banExpires?: string | Date | null;
  createdAt: string | Date;
};

export type AdminSession = {
  id: string;
  token: string;
  userAgent?: string | null;
  ipAddress?: string | null;
  createdAt: string | Date;
  updatedAt: string | Date;
  impersonatedBy?: string | null;
};

export const adminKeys = {
  users: (search: string, field: "email" | "name", offset: number) => ["admin", "users", search, field, offset] as const,
  sessions: (userId: string) => ["admin", "sessions", userId] as const,
};

export function useAdminUsers(search: string, field: "email" | "name", offset: number, limit: number) {
  return useQuery({
    queryKey: adminKeys.users(search, field, offset),
    queryFn: async () =>
      unwrap(
        await authClient.admin.listUsers({
          query: {
            limit,
            offset,
            sortBy: "createdAt",
            sortDirection: "desc",
            ...(search ? { searchValue: search, searchField: field, searchOperator: "contains" } : {}),
          },
        }),
      ) as { users: AdminUser[]; total: number },
    placeholderData: (previous) => previous,
  });
}

export function useUserSessions(userId: string) {
  return useQuery({
    queryKey: adminKeys.sessions(userId),
    queryFn: async () => (unwrap(await authClient.admin.listUserSessions({ userId })) as { sessions: AdminSession[] }).sessions,
  });
}

/** An admin action on one user: afterwards every admin list refreshes, so the table shows its effect. */
function useAdminMutation<TVariables, TData>(mutationFn: (variables: TVariables) => Promise<TData>, successMessage: (variables: TVariables) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["admin"] }),
    meta: { successMessage: (_data: TData, variables: TVariables) => successMessage(variables) },
  });
}

type Target = Pick<AdminUser, "id" | "name">;

export function useSetUserRole(user: Target) {
  return useAdminMutation(
    async ({ role }: { role: "admin" | "user" }) => unwrap(await authClient.admin.setRole({ userId: user.id, role })),
    ({ role }) => `${user.name} is now ${role}`,
  );
}

export function useSetUserPassword(user: Target) {
  return useAdminMutation(
    async ({ newPassword }: { newPassword: string }) => unwrap(await authClient.admin.setUserPassword({ userId: user.id, newPassword })),
    () => `New password set for ${user.name}`,
  );
}

export function useBanUser(user: Target) {
  return useAdminMutation(
    async ({ banReason, banSeconds }: { banReason: string; banSeconds: number }) =>
      unwrap(
        await authClient.admin.banUser({ userId: user.id, banReason: banReason.trim() || undefined, ...(banSeconds ? { banExpiresIn: banSeconds } : {}) }),
      ),
    () => `${user.name} is banned`,
  );
}

export function useUnbanUser(user: Target) {
  return useAdminMutation(
    async () => unwrap(await authClient.admin.unbanUser({ userId: user.id })),
    () => `${user.name} can sign in again`,
  );
}

export function useRevokeUserSession() {
  return useAdminMutation(
    async (sessionToken: string) => unwrap(await authClient.admin.revokeUserSession({ sessionToken })),
    () => "Session revoked",
  );
}

export function useRevokeUserSessions(user: Target) {
  return useAdminMutation(
    async () => unwrap(await authClient.admin.revokeUserSessions({ userId: user.id })),
    () => `Every session of ${user.name} was revoked`,
  );
}

export function useRemoveUser(user: Target) {
  return useAdminMutation(
    async () => unwrap(await authClient.admin.removeUser({ userId: user.id })),
    () => `${user.name} was deleted`,
  );
}

/**
 * Browses as another user, then opens their home. The session changes, so everything cached about the admin
 * is dropped; that unmounts the admin console, hence the navigation here rather than in a per-call callback.
 */
export function useImpersonateUser() {
  const refreshSession = useRefreshSession();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (userId: string) => unwrap(await authClient.admin.impersonateUser({ userId })),
    onSuccess: async () => {
      await refreshSession({ clearEverything: true });
      await navigate({ to: "/" });
    },
  });
}

/** Ends an impersonation and goes back to the admin console. */
export function useStopImpersonating() {
  const refreshSession = useRefreshSession();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => unwrap(await authClient.admin.stopImpersonating()),
    onSuccess: async () => {
      await refreshSession({ clearEverything: true });
      await navigate({ to: "/admin" });
    },
  });
}

/**
 * Whether the signed-in user may use the admin console: asked of the server, so users listed in
 * ADMIN_USER_IDS count as well as those with the admin role.
 */
export function platformAdminQuery(userId: string) {
  return queryOptions({
    queryKey: ["admin", "is-platform-admin", userId],
    queryFn: async () => (unwrap(await authClient.admin.hasPermission({ permissions: { user: ["list"] } })) as { success: boolean }).success,
    staleTime: 5 * 60_000,
  });
}

export function useIsPlatformAdmin(userId: string | undefined) {
  return useQuery({ ...platformAdminQuery(userId ?? ""), enabled: Boolean(userId) });
}

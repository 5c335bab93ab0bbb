import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";

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

/** Runs an admin action, then refreshes every admin list so the table shows its effect. */
export function useAdminAction<T>(action: (input: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["admin"] }),
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

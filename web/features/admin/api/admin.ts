import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import type {
  AdminUserListQuery,
  CreateUserInput,
  PlatformRoleOption,
  ResetSecondFactorsInput,
} from "../../../../common/admin.schemas";
import { api, apiCall, type ApiData } from "../../../lib/api-client";
import { unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useRefreshSession } from "../../../lib/session";

/**
 * The platform-admin console's users side. Reads come from the app's own API (`/api/admin/users…`), which can
 * search, filter and sort as better-auth's list cannot; every change goes through better-auth's admin endpoints,
 * which the server audits.
 */
export const adminKeys = {
  /** Everything the console caches; an action invalidates it all, so lists, pages and audit entries show its effect. */
  all: ["admin"] as const,
  users: (query: AdminUserListQuery) => ["admin", "users", query] as const,
  user: (userId: string) => ["admin", "user", userId] as const,
  sessions: (userId: string) => ["admin", "sessions", userId] as const,
};

export type AdminUserDetail = ApiData<Awaited<ReturnType<(typeof api.admin.users)[":userId"]["$get"]>>>;
export type AdminUserSession = Awaited<ReturnType<typeof fetchUserSessions>>[number];

/** The list's query as the URL carries it: strings, and nothing for what is not set. */
function toUserListParams(query: AdminUserListQuery) {
  return {
    ...(query.q ? { q: query.q } : {}),
    ...(query.role ? { role: query.role } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.verified ? { verified: query.verified } : {}),
    ...(query.createdFrom ? { createdFrom: query.createdFrom } : {}),
    ...(query.createdTo ? { createdTo: query.createdTo } : {}),
    sort: query.sort,
    order: query.order,
    limit: String(query.limit),
    offset: String(query.offset),
  };
}

export function adminUsersQuery(query: AdminUserListQuery) {
  return queryOptions({
    queryKey: adminKeys.users(query),
    queryFn: () => apiCall(api.admin.users.$get({ query: toUserListParams(query) })),
  });
}

/** One page of users; the previous page stays on screen while the next one loads, so the table does not jump. */
export function useAdminUsers(query: AdminUserListQuery) {
  return useQuery({ ...adminUsersQuery(query), placeholderData: keepPreviousData });
}

export function adminUserQuery(userId: string) {
  return queryOptions({
    queryKey: adminKeys.user(userId),
    queryFn: () => apiCall(api.admin.users[":userId"].$get({ param: { userId } })),
  });
}

export function useAdminUser(userId: string) {
  return useQuery(adminUserQuery(userId));
}

async function fetchUserSessions(userId: string) {
  const { sessions } = unwrap(await authClient.admin.listUserSessions({ userId }));
  // better-auth lists the sessions it still stores, expired ones included: only those that can still be used matter here.
  const now = Date.now();
  return sessions.filter((session) => new Date(session.expiresAt).getTime() > now);
}

export function adminUserSessionsQuery(userId: string) {
  return queryOptions({ queryKey: adminKeys.sessions(userId), queryFn: () => fetchUserSessions(userId) });
}

export function useAdminUserSessions(userId: string) {
  return useQuery(adminUserSessionsQuery(userId));
}

/**
 * An admin action on one user: afterwards everything the console shows is read again, so the page, the lists and
 * the audit log show its effect. `inline`: the dialog shows the error itself, so no toast.
 */
function useAdminMutation<TVariables, TData>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  successMessage: (variables: TVariables) => string,
  { inline = false }: { inline?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
    meta: {
      successMessage: (_data: TData, variables: TVariables) => successMessage(variables),
      ...(inline ? { errorToast: false } : {}),
    },
  });
}

type Target = { id: string; name: string };

/** Creates an account; without a password the server mails the person a link to set one. The form shows errors. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateUserInput) => {
      const { user } = unwrap(
        await authClient.admin.createUser({
          email: input.email,
          name: input.name,
          role: input.role,
          ...(input.passwordMode === "set" && input.password ? { password: input.password } : {}),
          ...(input.username ? { data: { username: input.username } } : {}),
        }),
      );
      return user;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
    meta: {
      errorToast: false,
      successMessage: (_user: unknown, input: CreateUserInput) =>
        input.passwordMode === "invite"
          ? `${input.name} was created and invited to set a password`
          : `${input.name} was created`,
    },
  });
}

export function useSetUserRole(user: Target) {
  return useAdminMutation(
    async ({ role }: { role: PlatformRoleOption }) => unwrap(await authClient.admin.setRole({ userId: user.id, role })),
    ({ role }) =>
      role === "admin" ? `${user.name} is now a platform admin` : `${user.name} is no longer a platform admin`,
    { inline: true },
  );
}

export function useSetUserPassword(user: Target) {
  return useAdminMutation(
    async ({ newPassword }: { newPassword: string }) =>
      unwrap(await authClient.admin.setUserPassword({ userId: user.id, newPassword })),
    () => `New password set for ${user.name}`,
    { inline: true },
  );
}

/** `expiresIn`: seconds from now; without it the ban lasts until it is lifted. */
export function useBanUser(user: Target) {
  return useAdminMutation(
    async ({ reason, expiresIn }: { reason: string; expiresIn?: number }) =>
      unwrap(
        await authClient.admin.banUser({
          userId: user.id,
          banReason: reason,
          ...(expiresIn ? { banExpiresIn: expiresIn } : {}),
        }),
      ),
    () => `${user.name} is banned`,
    { inline: true },
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

/**
 * Deletes the account, then goes back to the list. The user's own page is left before its data is dropped: read
 * again while still shown, it would flash "not found".
 */
export function useRemoveUser(user: Target) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => unwrap(await authClient.admin.removeUser({ userId: user.id })),
    onSuccess: async () => {
      await navigate({ to: "/admin" });
      queryClient.removeQueries({ queryKey: adminKeys.user(user.id) });
      queryClient.removeQueries({ queryKey: adminKeys.sessions(user.id) });
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    meta: { errorToast: false, successMessage: `${user.name} was deleted` },
  });
}

/**
 * Browses as another user, then opens their home. The server requires a reason (kept in the audit log), which
 * better-auth's typed client does not know of, hence the plain call. The session changes, so everything cached
 * about the admin is dropped; that unmounts the console, hence the navigation here rather than in a per-call callback.
 */
export function useImpersonateUser() {
  const refreshSession = useRefreshSession();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async ({ userId, reason }: { userId: string; reason: string }) =>
      unwrap(await authClient.$fetch("/admin/impersonate-user", { method: "POST", body: { userId, reason } })),
    onSuccess: async () => {
      await refreshSession({ clearEverything: true });
      await navigate({ to: "/" });
    },
    meta: { errorToast: false },
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
    queryFn: async () =>
      (unwrap(await authClient.admin.hasPermission({ permissions: { user: ["list"] } })) as { success: boolean })
        .success,
    staleTime: 5 * 60_000,
  });
}

export function useIsPlatformAdmin(userId: string | undefined) {
  return useQuery({ ...platformAdminQuery(userId ?? ""), enabled: Boolean(userId) });
}

/**
 * Removes a locked-out user's second factors (TOTP and passkeys) and signs them out everywhere, for a reason kept in
 * the audit log; the user is mailed. The dialog shows a refusal itself.
 */
export function useResetSecondFactors(user: Target) {
  return useAdminMutation(
    ({ reason }: ResetSecondFactorsInput) =>
      apiCall(api.admin.users[":userId"]["two-factor"].reset.$post({ param: { userId: user.id }, json: { reason } })),
    () => `The second factors of ${user.name} were reset`,
    { inline: true },
  );
}

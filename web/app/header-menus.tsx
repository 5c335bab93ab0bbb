import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Avatar } from "../components/ui/avatar";
import { unwrap } from "../lib/api-error";
import { authClient } from "../lib/auth-client";
import { useRefreshSession, useSession } from "../lib/session";
import { useIsPlatformAdmin } from "../features/admin/api/admin";
import { OrganizationSwitcher } from "../features/organizations/components/organization-switcher";

// The signed-in part of the header (Radix menus, the better-auth client), loaded by header.tsx only when there is
// a session, so signed-out pages such as /sign-in do not download it.

const menuItem =
  "flex cursor-pointer items-center rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800";

export function UserMenu() {
  const session = useSession();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  // A failure shows as an error toast (the query client's MutationCache).
  const signOut = useMutation({
    mutationFn: async () => unwrap(await authClient.signOut()),
    onSuccess: async () => {
      await refreshSession({ clearEverything: true });
      await navigate({ to: "/sign-in" });
    },
  });
  const user = session.data?.user;
  const isPlatformAdmin = useIsPlatformAdmin(user?.id);
  if (!user) return null;

  return (
    // No portal: the open menu stays inside the header's banner landmark, with the button that opens it.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger aria-label={`Account menu for ${user.name}`} className="rounded-full">
        <Avatar name={user.name} image={user.image} size="sm" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Content
        align="end"
        sideOffset={8}
        className="z-50 w-64 rounded-xl border border-zinc-200 bg-white p-1.5 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
      >
        <div className="px-3 py-2">
          <p className="truncate text-sm font-medium">{user.name}</p>
          <p className="truncate text-xs text-zinc-500 dark:text-zinc-400">{user.email}</p>
        </div>
        <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
        <DropdownMenu.Item className={menuItem} onSelect={() => navigate({ to: "/account" })}>
          Account settings
        </DropdownMenu.Item>
        <DropdownMenu.Item className={menuItem} onSelect={() => navigate({ to: "/account/sessions" })}>
          Sessions
        </DropdownMenu.Item>
        {isPlatformAdmin.data ? (
          <DropdownMenu.Item className={menuItem} onSelect={() => navigate({ to: "/admin" })}>
            Admin console
          </DropdownMenu.Item>
        ) : null}
        <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
        <DropdownMenu.Item className={menuItem} onSelect={() => signOut.mutate()}>
          Sign out
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

export { OrganizationSwitcher };

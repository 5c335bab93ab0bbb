import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useMutation } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { Avatar } from "../components/ui/avatar";
import { ThemeToggle } from "../components/ui/theme-toggle";
import { unwrap } from "../lib/api-error";
import { authClient } from "../lib/auth-client";
import { useRefreshSession, useSession } from "../lib/session";
import { useIsPlatformAdmin } from "../features/admin/api/admin";
import { OrganizationSwitcher } from "../features/organizations/components/organization-switcher";

const menuItem =
  "flex cursor-pointer items-center rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800";

function UserMenu() {
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
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger aria-label={`Account menu for ${user.name}`} className="rounded-full">
        <Avatar name={user.name} image={user.image} size="sm" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
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
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function Header() {
  const session = useSession();
  return (
    <header className="sticky top-0 z-30 border-b border-zinc-200 bg-white/80 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/80">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-4 sm:gap-4">
        <div className="flex min-w-0 items-center gap-2 sm:gap-4">
          <Link to="/" aria-label="Atrium home" className="flex shrink-0 items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" className="size-7" />
            <span className={session.data?.user ? "hidden sm:inline" : undefined}>Atrium</span>
          </Link>
          {session.data?.user ? <OrganizationSwitcher /> : null}
        </div>
        <div className="flex shrink-0 items-center gap-1 sm:gap-2">
          <ThemeToggle />
          {session.data?.user ? (
            <UserMenu />
          ) : session.isPending ? null : (
            <>
              <Link to="/sign-in" className="rounded-lg px-3 py-2 text-sm font-medium hover:bg-zinc-100 dark:hover:bg-zinc-800">
                Sign in
              </Link>
              <Link to="/sign-up" className="rounded-lg bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700">
                Sign up
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

import { Link } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { ThemeToggle } from "../components/ui/theme-toggle";
import { useSession } from "../lib/session";

// Only someone signed in gets the menus; the chunk loads when the session says so.
const OrganizationSwitcher = lazy(() =>
  import("./header-menus").then((module) => ({ default: module.OrganizationSwitcher })),
);
const UserMenu = lazy(() => import("./header-menus").then((module) => ({ default: module.UserMenu })));

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
          {session.data?.user ? (
            <Suspense fallback={null}>
              <OrganizationSwitcher />
            </Suspense>
          ) : null}
        </div>
        <div className="flex shrink-0 items-center gap-1 sm:gap-2">
          <ThemeToggle />
          {session.data?.user ? (
            // While the menu's chunk loads, an avatar-sized space keeps the header from shifting.
            <Suspense fallback={<span aria-hidden="true" className="size-8" />}>
              <UserMenu />
            </Suspense>
          ) : session.isPending ? null : (
            <>
              <Link
                to="/sign-in"
                className="rounded-lg px-3 py-2 text-sm font-medium hover:bg-zinc-100 dark:hover:bg-zinc-800"
              >
                Sign in
              </Link>
              <Link
                to="/sign-up"
                className="rounded-lg bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700"
              >
                Sign up
              </Link>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

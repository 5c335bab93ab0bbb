import type { QueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useLayoutEffect } from "react";
import {
  Link,
  Outlet,
  createRootRouteWithContext,
  createRoute,
  redirect,
  useRouterState,
  type ErrorComponentProps,
} from "@tanstack/react-router";
import { Button } from "../../components/ui/button";
import { LoadingBlock } from "../../components/ui/spinner";
import { FreshAuthenticationProvider } from "../../lib/fresh-authentication";
import { safeRedirect, sessionEndNotice, sessionQuery, useSession } from "../../lib/session";
import { useDocumentTitle } from "../document-title";
import { Header } from "../header";

export type RouterContext = { queryClient: QueryClient };

/**
 * Search params that are strings when present, anything malformed reading as absent: `validateSearch:
 * textSearch("notice", "error")`. Route definitions are on every page's first load, so they read these without zod.
 */
export function textSearch<TKey extends string>(...keys: TKey[]) {
  return (search: Record<string, unknown>) =>
    Object.fromEntries(keys.map((key) => [key, typeof search[key] === "string" ? search[key] : undefined])) as {
      [K in TKey]?: string;
    };
}

/**
 * A list's search params as the address has them, typed as the list's view: the list's loader and page parse them
 * with the API's schemas (routes/list-search.ts), which they load with zod, so the route definitions need neither.
 */
export function unparsedSearch<TView>() {
  return (search: Record<string, unknown>) => search as Partial<TView>;
}

// Only an impersonating admin sees the banner, so its code (the admin API, the better-auth client) loads only then.
const ImpersonationBanner = lazy(() =>
  import("../../features/admin/components/impersonation-banner").then((module) => ({
    default: module.ImpersonationBanner,
  })),
);

function RootLayout() {
  const isImpersonating = Boolean(useSession().data?.session.impersonatedBy);
  // The static shell of index.html stands in until this layout renders; it goes before the first paint of ours.
  useLayoutEffect(() => document.getElementById("app-shell")?.remove(), []);
  const isLoading = useRouterState({ select: (state) => state.status === "pending" });
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm"
      >
        Skip to content
      </a>
      <div
        aria-hidden="true"
        className={isLoading ? "fixed inset-x-0 top-0 z-50 h-0.5 animate-pulse bg-brand-500" : "hidden"}
      />
      {isImpersonating ? (
        <Suspense fallback={null}>
          <ImpersonationBanner />
        </Suspense>
      ) : null}
      <Header />
      <main id="main">
        <FreshAuthenticationProvider>
          <Outlet />
        </FreshAuthenticationProvider>
      </main>
    </div>
  );
}

function NotFoundPage() {
  useDocumentTitle("Page not found");
  return (
    <div className="mx-auto max-w-md px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">There is nothing at this address.</p>
      <Link to="/" className="mt-6 inline-block font-medium text-brand-600 hover:underline dark:text-brand-400">
        Go home
      </Link>
    </div>
  );
}

/** Shown while a page's code or data takes more than a moment (the progress bar covers shorter waits). */
export function PendingPage() {
  return <LoadingBlock label="Loading page…" />;
}

/** When a page cannot load at all, typically its code after a new release: say so and offer a reload. */
export function RouteErrorPage({ reset }: ErrorComponentProps) {
  return (
    <div className="mx-auto max-w-md px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">This page could not load</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">Check your connection, then try again.</p>
      <Button
        className="mt-6"
        onClick={() => {
          reset();
          window.location.reload();
        }}
      >
        Reload
      </Button>
    </div>
  );
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

// Made outside createRoute: inside it, with a beforeLoad reading the search, TypeScript infers the keys from the
// route's own types and finds none.
const guestSearch = textSearch("redirect");

/** Signed-out pages (/sign-in, /sign-up): a signed-in visitor goes where they were headed instead. */
export const guestRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "_guest",
  validateSearch: guestSearch,
  beforeLoad: async ({ context, search }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery);
    if (session) throw redirect({ to: safeRedirect(search.redirect) });
  },
});

/** Everything below needs a session; without one the visitor signs in and comes back. */
export const authedRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "_authed",
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery);
    // A session a ban ended: the sign-in page says why, rather than nothing.
    if (!session) throw redirect({ to: "/sign-in", search: { redirect: location.href, notice: sessionEndNotice() } });
    return { session };
  },
});

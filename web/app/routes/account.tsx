import { createRoute } from "@tanstack/react-router";
import { sessionsQuery } from "../../features/account/api/sessions";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { authedRoute } from "./root";

/** /account and its tabs: profile (/account), /account/password, /account/sessions, /account/delete. */

export const accountRoute = createRoute({ getParentRoute: () => authedRoute, path: "/account" }).lazy(
  lazyPage(
    () => import("../../features/account/routes/account-layout"),
    (page) => page.AccountLayout,
  ),
);

export const profileRoute = createRoute({ getParentRoute: () => accountRoute, path: "/" }).lazy(
  lazyPage(
    () => import("../../features/account/routes/profile-page"),
    ({ ProfilePage }) =>
      function Profile() {
        const { session } = profileRoute.useRouteContext();
        return <ProfilePage key={session.user.updatedAt.toString()} user={session.user} />;
      },
  ),
);

export const passwordRoute = createRoute({ getParentRoute: () => accountRoute, path: "/password" }).lazy(
  lazyPage(
    () => import("../../features/account/routes/password-page"),
    (page) => page.PasswordPage,
  ),
);

export const sessionsRoute = createRoute({
  getParentRoute: () => accountRoute,
  path: "/sessions",
  loader: ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(sessionsQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/account/routes/sessions-page"),
    ({ SessionsPage }) =>
      function Sessions() {
        const { session } = sessionsRoute.useRouteContext();
        return <SessionsPage currentSessionId={session.session.id} />;
      },
  ),
);

export const deleteAccountRoute = createRoute({ getParentRoute: () => accountRoute, path: "/delete" }).lazy(
  lazyPage(
    () => import("../../features/account/routes/delete-account-page"),
    (page) => page.DeleteAccountPage,
  ),
);

import { createRoute } from "@tanstack/react-router";
import { metaQuery } from "../../lib/meta";
import { safeNextPath, TWO_FACTOR_REQUIRED_REASON } from "../../lib/two-factor-required";
import { useSession } from "../../lib/session";
import { useDocumentTitle, withDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { authedRoute, textSearch } from "./root";

// The query modules load when a tab's loader runs, not with the route definitions (on every page's first load).
const signInMethods = () =>
  import("../../features/account/api/sign-in-methods").then((module) => module.signInMethodsQuery);

/**
 * /account and its tabs: profile (/account), /account/sign-in-methods, /account/password, /account/security,
 * /account/sessions,
 * /account/delete; and /account/set-password, where the link to set a first password lands.
 */

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
        useDocumentTitle("Profile", "Account");
        const { session } = profileRoute.useRouteContext();
        return <ProfilePage key={session.user.updatedAt.toString()} user={session.user} />;
      },
  ),
);

export const signInMethodsRoute = createRoute({
  getParentRoute: () => accountRoute,
  path: "/sign-in-methods",
  // `connected` names the provider a connection just came back from.
  validateSearch: textSearch("connected"),
  loader: async ({ context: { queryClient } }) =>
    settled(queryClient.ensureQueryData(await signInMethods()), queryClient.ensureQueryData(metaQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/account/routes/sign-in-methods-page"),
    ({ SignInMethodsPage }) =>
      function SignInMethods() {
        useDocumentTitle("Sign-in methods", "Account");
        const { session } = signInMethodsRoute.useRouteContext();
        return (
          <SignInMethodsPage
            email={session.user.email}
            username={session.user.displayUsername || session.user.username}
            connected={signInMethodsRoute.useSearch().connected}
          />
        );
      },
  ),
);

// Whether there is a password to change decides what the password and delete pages ask for.
export const passwordRoute = createRoute({
  getParentRoute: () => accountRoute,
  path: "/password",
  loader: async ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(await signInMethods())),
}).lazy(
  lazyPage(
    () => import("../../features/account/routes/password-page"),
    ({ PasswordPage }) =>
      function Password() {
        useDocumentTitle("Password", "Account");
        const { session } = passwordRoute.useRouteContext();
        return <PasswordPage email={session.user.email} />;
      },
  ),
);

/**
 * `next` and `reason`: an organization's second-factor policy sent the person here (web/lib/two-factor-required.ts).
 */
export const securityRoute = createRoute({
  getParentRoute: () => accountRoute,
  path: "/security",
  validateSearch: textSearch("next", "reason"),
}).lazy(
  lazyPage(
    () => import("../../features/account/routes/security-page"),
    ({ SecurityPage }) =>
      function Security() {
        useDocumentTitle("Security", "Account");
        // The session as last read: turning the factor on or off replaces it, and the route's copy is from the load.
        const { session } = securityRoute.useRouteContext();
        const user = useSession().data?.user ?? session.user;
        const { next, reason } = securityRoute.useSearch();
        return (
          <SecurityPage
            twoFactorEnabled={Boolean(user.twoFactorEnabled)}
            required={reason === TWO_FACTOR_REQUIRED_REASON}
            next={safeNextPath(next)}
          />
        );
      },
  ),
);

/** The mailed link's landing (server/auth/first-password.ts): better-auth sends `token`, or `error` when it did not work. */
export const setPasswordRoute = createRoute({
  getParentRoute: () => accountRoute,
  path: "/set-password",
  validateSearch: textSearch("token", "error"),
}).lazy(
  lazyPage(
    () => import("../../features/account/routes/set-password-page"),
    ({ SetPasswordPage }) =>
      function SetPassword() {
        useDocumentTitle("Set a password", "Account");
        const search = setPasswordRoute.useSearch();
        return <SetPasswordPage token={search.token} error={search.error} />;
      },
  ),
);

export const sessionsRoute = createRoute({
  getParentRoute: () => accountRoute,
  path: "/sessions",
  loader: async ({ context: { queryClient } }) => {
    const { sessionsQuery } = await import("../../features/account/api/sessions");
    await settled(queryClient.ensureQueryData(sessionsQuery));
  },
}).lazy(
  lazyPage(
    () => import("../../features/account/routes/sessions-page"),
    ({ SessionsPage }) =>
      function Sessions() {
        useDocumentTitle("Sessions", "Account");
        const { session } = sessionsRoute.useRouteContext();
        return <SessionsPage currentSessionId={session.session.id} />;
      },
  ),
);

export const deleteAccountRoute = createRoute({
  getParentRoute: () => accountRoute,
  path: "/delete",
  loader: async ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(await signInMethods())),
}).lazy(
  lazyPage(
    () => import("../../features/account/routes/delete-account-page"),
    (page) => withDocumentTitle(page.DeleteAccountPage, "Delete account", "Account"),
  ),
);

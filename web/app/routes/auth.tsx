import { createRoute } from "@tanstack/react-router";
import { metaQuery } from "../../lib/meta";
import { useDocumentTitle, withDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { guestRoute, textSearch, rootRoute } from "./root";

/**
 * The signed-out pages: /sign-in, /sign-in/two-factor, /sign-up (guests only), /check-email, /email-verified, /email-changed,
 * /forgot-password, /reset-password, and /auth/error.
 */

export const signInRoute = createRoute({
  getParentRoute: () => guestRoute,
  path: "/sign-in",
  validateSearch: textSearch("notice"),
  // The social sign-in buttons depend on which providers the deployment has.
  loader: ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(metaQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/auth/routes/sign-in-page"),
    ({ SignInPage }) =>
      function SignIn() {
        useDocumentTitle("Sign in");
        const search = signInRoute.useSearch();
        return <SignInPage redirect={search.redirect} notice={search.notice} />;
      },
  ),
);

/** The second step of a password sign-in of an account with a second factor. */
export const twoFactorRoute = createRoute({ getParentRoute: () => guestRoute, path: "/sign-in/two-factor" }).lazy(
  lazyPage(
    () => import("../../features/auth/routes/two-factor-page"),
    ({ TwoFactorPage }) =>
      function TwoFactor() {
        useDocumentTitle("Two-factor authentication");
        return <TwoFactorPage redirect={twoFactorRoute.useSearch().redirect} />;
      },
  ),
);

export const signUpRoute = createRoute({
  getParentRoute: () => guestRoute,
  path: "/sign-up",
  validateSearch: textSearch("email"),
  loader: ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(metaQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/auth/routes/sign-up-page"),
    ({ SignUpPage }) =>
      function SignUp() {
        useDocumentTitle("Create your account");
        const search = signUpRoute.useSearch();
        return <SignUpPage email={search.email} redirect={search.redirect} />;
      },
  ),
);

export const checkEmailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/check-email",
  validateSearch: textSearch("email"),
  loader: ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(metaQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/auth/routes/check-email-page"),
    ({ CheckEmailPage }) =>
      function CheckEmail() {
        useDocumentTitle("Check your inbox");
        return <CheckEmailPage email={checkEmailRoute.useSearch().email} />;
      },
  ),
);

/** Where a verification link lands (the server sends `next`, or `error` when the link did not work). */
export const emailVerifiedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/email-verified",
  validateSearch: textSearch("next", "error"),
}).lazy(
  lazyPage(
    () => import("../../features/auth/routes/email-verified-page"),
    ({ EmailVerifiedPage }) =>
      function EmailVerified() {
        const search = emailVerifiedRoute.useSearch();
        return <EmailVerifiedPage next={search.next} error={search.error} />;
      },
  ),
);

/** Where the link confirming a new e-mail address lands, signed in or not (`next`, or `error` if it did not work). */
export const emailChangedRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/email-changed",
  validateSearch: textSearch("next", "error"),
}).lazy(
  lazyPage(
    () => import("../../features/account/routes/email-changed-page"),
    ({ EmailChangedPage }) =>
      function EmailChanged() {
        const search = emailChangedRoute.useSearch();
        useDocumentTitle(search.error ? "This link does not work" : "E-mail address changed");
        return <EmailChangedPage next={search.next} error={search.error} />;
      },
  ),
);

export const forgotPasswordRoute = createRoute({ getParentRoute: () => rootRoute, path: "/forgot-password" }).lazy(
  lazyPage(
    () => import("../../features/auth/routes/forgot-password-page"),
    (page) => withDocumentTitle(page.ForgotPasswordPage, "Forgot your password?"),
  ),
);

export const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/reset-password",
  validateSearch: textSearch("token", "error"),
}).lazy(
  lazyPage(
    () => import("../../features/auth/routes/reset-password-page"),
    ({ ResetPasswordPage }) =>
      function ResetPassword() {
        useDocumentTitle("Choose a new password");
        const search = resetPasswordRoute.useSearch();
        return <ResetPasswordPage token={search.token} error={search.error} />;
      },
  ),
);

/** Where a sign-in (or a connection) through a provider ends when it fails; the server sends `?error=`. */
export const signInErrorRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/auth/error",
  validateSearch: textSearch("error", "error_description"),
  loader: ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(metaQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/auth/routes/sign-in-error-page"),
    ({ SignInErrorPage }) =>
      function SignInError() {
        useDocumentTitle("Signing in did not finish");
        const search = signInErrorRoute.useSearch();
        return <SignInErrorPage error={search.error} errorDescription={search.error_description} />;
      },
  ),
);

import type { QueryClient } from "@tanstack/react-query";
import { createRouter } from "@tanstack/react-router";
import {
  accountRoute,
  deleteAccountRoute,
  passwordRoute,
  profileRoute,
  securityRoute,
  sessionsRoute,
  setPasswordRoute,
  signInMethodsRoute,
} from "./routes/account";
import {
  adminAuditLogRoute,
  adminOrganizationRoute,
  adminOrganizationsRoute,
  adminRoute,
  adminUserRoute,
  adminUsersRoute,
} from "./routes/admin";
import {
  checkEmailRoute,
  emailVerifiedRoute,
  emailChangedRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  signInErrorRoute,
  signInRoute,
  signUpRoute,
  twoFactorRoute,
} from "./routes/auth";
import { devMailRoute } from "./routes/dev";
import { homeRoute } from "./routes/home";
import { invitationRoute } from "./routes/invitations";
import {
  auditLogRoute,
  billingRoute,
  createOrganizationRoute,
  dangerZoneRoute,
  generalSettingsRoute,
  invitationsRoute,
  membersRoute,
  organizationSecurityRoute,
  organizationSsoRoute,
  organizationDirectorySyncRoute,
  organizationWebhooksRoute,
  organizationApiKeysRoute,
  organizationSettingsRoute,
  teamsRoute,
} from "./routes/organizations";
import { authedRoute, guestRoute, PendingPage, RouteErrorPage, rootRoute } from "./routes/root";

/**
 * The route tree. Definitions live in web/app/routes/, one file per area of the URL space; each page's code
 * is its own chunk (see routes/lazy-page.ts) and loaders put its data in the query cache before it renders.
 *
 *   /                                         home.tsx
 *   (_guest) /sign-in[/two-factor] /sign-up   auth.tsx   (+ /check-email /email-verified /email-changed
 *                                                         /forgot-password /reset-password /auth/error)
 *   (_authed) /account[/sign-in-methods|/password|/security|/set-password|/sessions|/delete]   account.tsx
 *   (_authed) /organizations/new, /organizations/$organizationId/settings[/…]   organizations.tsx  (…/billing: billing feature; …/audit-log)
 *   (_authed) /admin[/organizations[/$organizationId]]                    admin.tsx
 *   /invitations/$invitationId                invitations.tsx
 *   /dev/mail                                 dev.tsx
 */
const routeTree = rootRoute.addChildren([
  homeRoute,
  guestRoute.addChildren([signInRoute, twoFactorRoute, signUpRoute]),
  checkEmailRoute,
  emailVerifiedRoute,
  emailChangedRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  signInErrorRoute,
  authedRoute.addChildren([
    accountRoute.addChildren([
      profileRoute,
      signInMethodsRoute,
      passwordRoute,
      securityRoute,
      setPasswordRoute,
      sessionsRoute,
      deleteAccountRoute,
    ]),
    createOrganizationRoute,
    adminRoute.addChildren([
      adminUsersRoute,
      adminUserRoute,
      adminOrganizationsRoute,
      adminOrganizationRoute,
      adminAuditLogRoute,
    ]),
    organizationSettingsRoute.addChildren([
      generalSettingsRoute,
      membersRoute,
      invitationsRoute,
      teamsRoute,
      billingRoute,
      auditLogRoute,
      organizationSecurityRoute,
      organizationSsoRoute,
      organizationDirectorySyncRoute,
      organizationWebhooksRoute,
      organizationApiKeysRoute,
      dangerZoneRoute,
    ]),
  ]),
  invitationRoute,
  devMailRoute,
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: "intent",
    // The query cache decides freshness; the router need not cache loader results on top of it.
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: PendingPage,
    defaultErrorComponent: RouteErrorPage,
    scrollRestoration: true,
  });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

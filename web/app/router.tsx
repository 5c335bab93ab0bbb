import type { QueryClient } from "@tanstack/react-query";
import { Outlet, createRootRouteWithContext, createRoute, createRouter, redirect, useRouterState, Link } from "@tanstack/react-router";
import { z } from "zod";
import { AccountLayout } from "../features/account/routes/account-layout";
import { platformAdminQuery } from "../features/admin/api/admin";
import { ImpersonationBanner } from "../features/admin/components/impersonation-banner";
import { AdminUsersPage } from "../features/admin/routes/admin-users-page";
import { DeleteAccountPage } from "../features/account/routes/delete-account-page";
import { PasswordPage } from "../features/account/routes/password-page";
import { ProfilePage } from "../features/account/routes/profile-page";
import { SessionsPage } from "../features/account/routes/sessions-page";
import { sessionQuery } from "../features/auth/api/session";
import { CheckEmailPage } from "../features/auth/routes/check-email-page";
import { ForgotPasswordPage } from "../features/auth/routes/forgot-password-page";
import { ResetPasswordPage } from "../features/auth/routes/reset-password-page";
import { SignInPage } from "../features/auth/routes/sign-in-page";
import { SignUpPage } from "../features/auth/routes/sign-up-page";
import { DevMailPage } from "../features/dev-mail/routes/dev-mail-page";
import { HomePage } from "../features/home/routes/home-page";
import { CreateOrganizationPage } from "../features/organizations/routes/create-organization-page";
import { DangerZonePage } from "../features/organizations/routes/danger-zone-page";
import { GeneralSettingsPage } from "../features/organizations/routes/general-settings-page";
import { InvitationPage } from "../features/organizations/routes/invitation-page";
import { InvitationsPage } from "../features/organizations/routes/invitations-page";
import { MembersPage } from "../features/organizations/routes/members-page";
import { OrganizationSettingsLayout } from "../features/organizations/routes/organization-settings-layout";
import { TeamsPage } from "../features/organizations/routes/teams-page";
import { Header } from "./header";

type RouterContext = { queryClient: QueryClient };

function RootLayout() {
  const isLoading = useRouterState({ select: (state) => state.status === "pending" });
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm"
      >
        Skip to content
      </a>
      <div aria-hidden="true" className={isLoading ? "fixed inset-x-0 top-0 z-50 h-0.5 animate-pulse bg-brand-500" : "hidden"} />
      <ImpersonationBanner />
      <Header />
      <main id="main">
        <Outlet />
      </main>
    </div>
  );
}

function NotFoundPage() {
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

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: RootLayout, notFoundComponent: NotFoundPage });

const text = z.string().optional().catch(undefined);

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  validateSearch: z.object({ notice: text, error: text }),
  component: function Home() {
    const search = homeRoute.useSearch();
    return <HomePage notice={search.notice} error={search.error} />;
  },
});

/** Signed-out pages: a signed-in visitor goes where they were headed instead. */
const guestRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "guest",
  beforeLoad: async ({ context, search }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery);
    const target = (search as { redirect?: string }).redirect;
    if (session) throw redirect({ to: target && target.startsWith("/") && !target.startsWith("//") ? target : "/" });
  },
});

const signInRoute = createRoute({
  getParentRoute: () => guestRoute,
  path: "/sign-in",
  validateSearch: z.object({ redirect: text, notice: text }),
  component: function SignIn() {
    const search = signInRoute.useSearch();
    return <SignInPage redirect={search.redirect} notice={search.notice} />;
  },
});

const signUpRoute = createRoute({
  getParentRoute: () => guestRoute,
  path: "/sign-up",
  validateSearch: z.object({ redirect: text, email: text }),
  component: function SignUp() {
    const search = signUpRoute.useSearch();
    return <SignUpPage email={search.email} redirect={search.redirect} />;
  },
});

const checkEmailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/check-email",
  validateSearch: z.object({ email: text }),
  component: function CheckEmail() {
    return <CheckEmailPage email={checkEmailRoute.useSearch().email} />;
  },
});

const forgotPasswordRoute = createRoute({ getParentRoute: () => rootRoute, path: "/forgot-password", component: ForgotPasswordPage });

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/reset-password",
  validateSearch: z.object({ token: text, error: text }),
  component: function ResetPassword() {
    const search = resetPasswordRoute.useSearch();
    return <ResetPasswordPage token={search.token} error={search.error} />;
  },
});

/** Everything below needs a session; without one the visitor signs in and comes back. */
const authedRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "authed",
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery);
    if (!session) throw redirect({ to: "/sign-in", search: { redirect: location.href } });
    return { session };
  },
});

const accountRoute = createRoute({ getParentRoute: () => authedRoute, path: "/account", component: AccountLayout });

const profileRoute = createRoute({
  getParentRoute: () => accountRoute,
  path: "/",
  component: function Profile() {
    const { session } = profileRoute.useRouteContext();
    return <ProfilePage key={session.user.updatedAt.toString()} user={session.user} />;
  },
});
const passwordRoute = createRoute({ getParentRoute: () => accountRoute, path: "/password", component: PasswordPage });
const sessionsRoute = createRoute({
  getParentRoute: () => accountRoute,
  path: "/sessions",
  component: function Sessions() {
    const { session } = sessionsRoute.useRouteContext();
    return <SessionsPage currentSessionId={session.session.id} />;
  },
});
const deleteAccountRoute = createRoute({ getParentRoute: () => accountRoute, path: "/delete", component: DeleteAccountPage });

const createOrganizationRoute = createRoute({ getParentRoute: () => authedRoute, path: "/organizations/new", component: CreateOrganizationPage });

const organizationSettingsRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/organizations/$organizationId/settings",
  component: function OrganizationSettings() {
    const { organizationId } = organizationSettingsRoute.useParams();
    const { session } = organizationSettingsRoute.useRouteContext();
    return <OrganizationSettingsLayout key={organizationId} organizationId={organizationId} userId={session.user.id} />;
  },
});
const generalSettingsRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/", component: GeneralSettingsPage });
const membersRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/members", component: MembersPage });
const invitationsRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/invitations", component: InvitationsPage });
const teamsRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/teams", component: TeamsPage });
const dangerZoneRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/danger", component: DangerZonePage });

const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/invitations/$invitationId",
  validateSearch: z.object({ email: text }),
  component: function Invitation() {
    const { invitationId } = invitationRoute.useParams();
    return <InvitationPage key={invitationId} invitationId={invitationId} email={invitationRoute.useSearch().email} />;
  },
});

/** Platform admins only; the server refuses everyone else anyway. */
const adminRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/admin",
  beforeLoad: async ({ context }) => {
    if (!(await context.queryClient.ensureQueryData(platformAdminQuery(context.session.user.id)))) throw redirect({ to: "/" });
  },
  component: function Admin() {
    const { session } = adminRoute.useRouteContext();
    return <AdminUsersPage currentUserId={session.user.id} />;
  },
});

const devMailRoute = createRoute({ getParentRoute: () => rootRoute, path: "/dev/mail", component: DevMailPage });

const routeTree = rootRoute.addChildren([
  homeRoute,
  guestRoute.addChildren([signInRoute, signUpRoute]),
  checkEmailRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  authedRoute.addChildren([
    accountRoute.addChildren([profileRoute, passwordRoute, sessionsRoute, deleteAccountRoute]),
    createOrganizationRoute,
    adminRoute,
    organizationSettingsRoute.addChildren([generalSettingsRoute, membersRoute, invitationsRoute, teamsRoute, dangerZoneRoute]),
  ]),
  invitationRoute,
  devMailRoute,
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({ routeTree, context: { queryClient }, defaultPreload: "intent", scrollRestoration: true });
}

declare module "@tanstack/react-router" {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

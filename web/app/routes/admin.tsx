import { createRoute, redirect } from "@tanstack/react-router";
import { platformAdminQuery } from "../../features/admin/api/admin";
import { lazyPage } from "./lazy-page";
import { authedRoute } from "./root";

/**
 * /admin: platform admins only (the server refuses everyone else anyway). The console's layout and its Users tab
 * are the admin feature's; the Organizations tab (/admin/organizations[/$organizationId]) is the billing feature's.
 */
export const adminRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/admin",
  beforeLoad: async ({ context }) => {
    if (!(await context.queryClient.ensureQueryData(platformAdminQuery(context.session.user.id)))) throw redirect({ to: "/" });
  },
}).lazy(
  lazyPage(
    () => import("../../features/admin/routes/admin-layout"),
    (page) => page.AdminLayout,
  ),
);

export const adminUsersRoute = createRoute({ getParentRoute: () => adminRoute, path: "/" }).lazy(
  lazyPage(
    () => import("../../features/admin/routes/admin-users-page"),
    ({ AdminUsersPage }) =>
      function AdminUsers() {
        const { session } = adminUsersRoute.useRouteContext();
        return <AdminUsersPage currentUserId={session.user.id} />;
      },
  ),
);

export const adminOrganizationsRoute = createRoute({ getParentRoute: () => adminRoute, path: "/organizations" }).lazy(
  lazyPage(
    () => import("../../features/billing/routes/admin-organizations-page"),
    (page) => page.AdminOrganizationsPage,
  ),
);

export const adminOrganizationBillingRoute = createRoute({ getParentRoute: () => adminRoute, path: "/organizations/$organizationId" }).lazy(
  lazyPage(
    () => import("../../features/billing/routes/admin-organization-billing-page"),
    ({ AdminOrganizationBillingPage }) =>
      function AdminOrganizationBilling() {
        const { organizationId } = adminOrganizationBillingRoute.useParams();
        return <AdminOrganizationBillingPage key={organizationId} organizationId={organizationId} />;
      },
  ),
);

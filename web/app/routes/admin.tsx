import { createRoute, redirect } from "@tanstack/react-router";
import { platformAdminQuery } from "../../features/admin/api/admin";
import { lazyPage } from "./lazy-page";
import { authedRoute } from "./root";

/** /admin: platform admins only; the server refuses everyone else anyway. */
export const adminRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/admin",
  beforeLoad: async ({ context }) => {
    if (!(await context.queryClient.ensureQueryData(platformAdminQuery(context.session.user.id)))) throw redirect({ to: "/" });
  },
}).lazy(
  lazyPage(
    () => import("../../features/admin/routes/admin-users-page"),
    ({ AdminUsersPage }) =>
      function Admin() {
        const { session } = adminRoute.useRouteContext();
        return <AdminUsersPage currentUserId={session.user.id} />;
      },
  ),
);

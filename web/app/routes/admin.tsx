import { useQuery } from "@tanstack/react-query";
import { createRoute, redirect, stripSearchParams, useRouter } from "@tanstack/react-router";
import { useMemo } from "react";
import { ADMIN_DEFAULT_PAGE_SIZE } from "../../../common/admin-limits";
import type { AdminOrganizationListQuery, AdminUserListQuery } from "../../../common/admin.schemas";
import type { AuditLogQuery } from "../../../common/audit.schemas";
import { metaQuery } from "../../lib/meta";
import { useDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { authedRoute, unparsedSearch } from "./root";

// The query modules and the lists' search schemas (with zod) load with the pages and loaders that use them, not with
// the route definitions, which are on every page's first load.
const adminApi = () => import("../../features/admin/api/admin");
const organizationsApi = () => import("../../features/admin/api/organizations");
const listSearch = () => import("./list-search");

/**
 * /admin: the platform-admin console, for platform admins only (the server refuses everyone else anyway).
 *
 *   /admin                                  users: search, filters, sorting, paging, all in the address
 *   /admin/users/$userId                    a user: profile, sign-in methods, organizations, sessions, audit log, actions
 *   /admin/organizations[/$organizationId]  organizations; an organization's page holds the billing feature's panel
 *   /admin/audit-log                        every recorded change, filtered by the address
 *
 * Every list keeps its view in the search params, so it can be shared and survives reload and Back. A value that
 * does not parse (a hand-edited or outdated address) reads as its default rather than failing the page: the list's
 * loader and page parse the address with routes/list-search.ts. A list's
 * loader reads its data on the way in; a change of view while on the list is not waited for (`cause === "stay"`):
 * the page keeps the previous rows on screen while the next ones load, so filters and typing answer at once.
 */
export const adminRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/admin",
  beforeLoad: async ({ context }) => {
    // While an admin browses as someone else the server closes the console, so its pages could only fail.
    if (context.session.session.impersonatedBy) throw redirect({ to: "/" });
    const { platformAdminQuery } = await adminApi();
    if (!(await context.queryClient.ensureQueryData(platformAdminQuery(context.session.user.id))))
      throw redirect({ to: "/" });
  },
}).lazy(
  lazyPage(
    () => import("../../features/admin/routes/admin-layout"),
    (page) => page.AdminLayout,
  ),
);

/**
 * Whether the admin is still on a list page: a debounced search that lands after a click on a row's link must not
 * pull them back to the list, so its write is dropped.
 */
function useIsStillOn(pathname: string): () => boolean {
  const router = useRouter();
  const trimmed = (value: string) => value.replace(/\/+$/, "");
  return () => trimmed(router.state.location.pathname) === trimmed(pathname);
}

export const adminUsersRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/",
  validateSearch: unparsedSearch<AdminUserListQuery>(),
  // The defaults stay out of the address: /admin?q=ada rather than /admin?q=ada&sort=created&order=desc&limit=25&offset=0.
  search: {
    middlewares: [stripSearchParams({ sort: "created", order: "desc", limit: ADMIN_DEFAULT_PAGE_SIZE, offset: 0 })],
  },
  loaderDeps: ({ search }) => search,
  loader: async ({ context: { queryClient }, deps, cause }) => {
    if (cause === "stay") return;
    const [{ adminUsersQuery }, { userListSearchSchema }] = await Promise.all([adminApi(), listSearch()]);
    await settled(queryClient.ensureQueryData(adminUsersQuery(userListSearchSchema.parse(deps))));
  },
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/admin/routes/admin-users-page"), listSearch()]),
    ([{ AdminUsersPage }, { userListSearchSchema }]) =>
      function AdminUsers() {
        useDocumentTitle("Users", "Admin");
        const address = adminUsersRoute.useSearch();
        const search = useMemo(() => userListSearchSchema.parse(address), [address]);
        const navigate = adminUsersRoute.useNavigate();
        const isStillHere = useIsStillOn(adminUsersRoute.useMatch().pathname);
        return (
          <AdminUsersPage
            search={search}
            onSearchChange={(update, options) => {
              if (!isStillHere()) return;
              const search = (address: object) => update(userListSearchSchema.parse(address));
              void navigate({ to: ".", search, replace: options?.replace, resetScroll: false });
            }}
          />
        );
      },
  ),
);

export const adminUserRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/users/$userId",
  // The deployment's providers name the user's sign-in methods.
  loader: async ({ context: { queryClient }, params }) => {
    const { adminUserQuery, adminUserSessionsQuery } = await adminApi();
    await settled(
      queryClient.ensureQueryData(adminUserQuery(params.userId)),
      queryClient.ensureQueryData(adminUserSessionsQuery(params.userId)),
      queryClient.ensureQueryData(metaQuery),
    );
  },
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/admin/routes/admin-user-page"), adminApi()]),
    ([{ AdminUserPage }, { adminUserQuery }]) =>
      function AdminUser() {
        const { userId } = adminUserRoute.useParams();
        useDocumentTitle(useQuery(adminUserQuery(userId)).data?.user.name ?? "User", "Users", "Admin");
        const { session } = adminUserRoute.useRouteContext();
        return (
          <AdminUserPage
            key={userId}
            userId={userId}
            currentUserId={session.user.id}
            currentSessionId={session.session.id}
          />
        );
      },
  ),
);

export const adminOrganizationsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/organizations",
  validateSearch: unparsedSearch<AdminOrganizationListQuery>(),
  search: { middlewares: [stripSearchParams({ limit: ADMIN_DEFAULT_PAGE_SIZE, offset: 0 })] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context: { queryClient }, deps, cause }) => {
    if (cause === "stay") return;
    const [{ adminOrganizationsQuery }, { organizationListSearchSchema }] = await Promise.all([
      organizationsApi(),
      listSearch(),
    ]);
    await settled(queryClient.ensureQueryData(adminOrganizationsQuery(organizationListSearchSchema.parse(deps))));
  },
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/admin/routes/admin-organizations-page"), listSearch()]),
    ([{ AdminOrganizationsPage }, { organizationListSearchSchema }]) =>
      function AdminOrganizations() {
        useDocumentTitle("Organizations", "Admin");
        const address = adminOrganizationsRoute.useSearch();
        const search = useMemo(() => organizationListSearchSchema.parse(address), [address]);
        const navigate = adminOrganizationsRoute.useNavigate();
        const isStillHere = useIsStillOn(adminOrganizationsRoute.useMatch().pathname);
        return (
          <AdminOrganizationsPage
            search={search}
            onSearchChange={(update) => {
              const search = (address: object) => update(organizationListSearchSchema.parse(address));
              if (isStillHere()) void navigate({ to: ".", search, resetScroll: false });
            }}
          />
        );
      },
  ),
);

/** An organization's page is the admin feature's; its billing panel is the billing feature's, composed here. */
export const adminOrganizationRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/organizations/$organizationId",
  loader: async ({ context: { queryClient }, params }) => {
    const { adminOrganizationQuery } = await organizationsApi();
    await settled(queryClient.ensureQueryData(adminOrganizationQuery(params.organizationId)));
  },
}).lazy(
  lazyPage(
    () =>
      Promise.all([
        import("../../features/admin/routes/admin-organization-page"),
        import("../../features/billing/components/admin-organization-billing-panel"),
        organizationsApi(),
      ]),
    ([{ AdminOrganizationPage }, { AdminOrganizationBillingPanel }, { adminOrganizationQuery }]) =>
      function AdminOrganization() {
        const { organizationId } = adminOrganizationRoute.useParams();
        useDocumentTitle(
          useQuery(adminOrganizationQuery(organizationId)).data?.organization.name ?? "Organization",
          "Organizations",
          "Admin",
        );
        return (
          <AdminOrganizationPage
            key={organizationId}
            organizationId={organizationId}
            billing={<AdminOrganizationBillingPanel organizationId={organizationId} />}
          />
        );
      },
  ),
);

export const adminAuditLogRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/audit-log",
  validateSearch: unparsedSearch<AuditLogQuery>(),
  search: { middlewares: [stripSearchParams({ limit: ADMIN_DEFAULT_PAGE_SIZE, offset: 0 })] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context: { queryClient }, deps, cause }) => {
    if (cause === "stay") return;
    const [{ adminAuditLogQuery }, { auditLogSearchSchema }] = await Promise.all([
      import("../../features/admin/api/audit-log"),
      listSearch(),
    ]);
    await settled(queryClient.ensureQueryData(adminAuditLogQuery(auditLogSearchSchema.parse(deps))));
  },
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/admin/routes/admin-audit-log-page"), listSearch()]),
    ([{ AdminAuditLogPage }, { auditLogSearchSchema }]) =>
      function AdminAuditLog() {
        useDocumentTitle("Audit log", "Admin");
        const address = adminAuditLogRoute.useSearch();
        const search = useMemo(() => auditLogSearchSchema.parse(address), [address]);
        const navigate = adminAuditLogRoute.useNavigate();
        const isStillHere = useIsStillOn(adminAuditLogRoute.useMatch().pathname);
        return (
          <AdminAuditLogPage
            search={search}
            onSearchChange={(update) => {
              const search = (address: object) => update(auditLogSearchSchema.parse(address));
              if (isStillHere()) void navigate({ to: ".", search, resetScroll: false });
            }}
          />
        );
      },
  ),
);

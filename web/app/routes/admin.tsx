import { createRoute, redirect, stripSearchParams, useRouter } from "@tanstack/react-router";
import { z } from "zod";
import { ADMIN_DEFAULT_PAGE_SIZE, adminOrganizationListQuerySchema, adminUserListQuerySchema } from "../../../common/admin.schemas";
import { auditLogQuerySchema } from "../../../common/audit.schemas";
import { adminUserQuery, adminUserSessionsQuery, adminUsersQuery, platformAdminQuery } from "../../features/admin/api/admin";
import { adminAuditLogQuery } from "../../features/admin/api/audit-log";
import { adminOrganizationQuery, adminOrganizationsQuery } from "../../features/admin/api/organizations";
import { metaQuery } from "../../lib/meta";
import { useQuery } from "@tanstack/react-query";
import { useDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { authedRoute } from "./root";

/**
 * /admin: the platform-admin console, for platform admins only (the server refuses everyone else anyway).
 *
 *   /admin                                  users: search, filters, sorting, paging, all in the address
 *   /admin/users/$userId                    a user: profile, sign-in methods, organizations, sessions, audit log, actions
 *   /admin/organizations[/$organizationId]  organizations; an organization's page holds the billing feature's panel
 *   /admin/audit-log                        every recorded change, filtered by the address
 *
 * Every list keeps its view in the search params, so it can be shared and survives reload and Back. A value that
 * does not parse (a hand-edited or outdated address) reads as its default rather than failing the page. A list's
 * loader reads its data on the way in; a change of view while on the list is not waited for (`cause === "stay"`):
 * the page keeps the previous rows on screen while the next ones load, so filters and typing answer at once.
 */
export const adminRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/admin",
  beforeLoad: async ({ context }) => {
    // While an admin browses as someone else the server closes the console, so its pages could only fail.
    if (context.session.session.impersonatedBy) throw redirect({ to: "/" });
    if (!(await context.queryClient.ensureQueryData(platformAdminQuery(context.session.user.id)))) throw redirect({ to: "/" });
  },
}).lazy(
  lazyPage(
    () => import("../../features/admin/routes/admin-layout"),
    (page) => page.AdminLayout,
  ),
);

/** A date range whose end comes before its start keeps only its start (the server would refuse it). */
function withOrderedRange<T, K extends keyof T>(from: K, to: K) {
  return (search: T): T => (search[from] && search[to] && search[from] > search[to] ? { ...search, [to]: undefined } : search);
}

const users = adminUserListQuerySchema.shape;
export const userListSearchSchema = z
  .object({
    q: users.q.catch(undefined),
    role: users.role.catch(undefined),
    status: users.status.catch(undefined),
    verified: users.verified.catch(undefined),
    createdFrom: users.createdFrom.catch(undefined),
    createdTo: users.createdTo.catch(undefined),
    sort: users.sort.catch("created"),
    order: users.order.catch("desc"),
    limit: users.limit.catch(ADMIN_DEFAULT_PAGE_SIZE),
    offset: users.offset.catch(0),
  })
  .transform(withOrderedRange("createdFrom", "createdTo"));

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
  validateSearch: userListSearchSchema,
  // The defaults stay out of the address: /admin?q=ada rather than /admin?q=ada&sort=created&order=desc&limit=25&offset=0.
  search: { middlewares: [stripSearchParams({ sort: "created", order: "desc", limit: ADMIN_DEFAULT_PAGE_SIZE, offset: 0 })] },
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps, cause }) => (cause === "stay" ? undefined : settled(queryClient.ensureQueryData(adminUsersQuery(deps)))),
}).lazy(
  lazyPage(
    () => import("../../features/admin/routes/admin-users-page"),
    ({ AdminUsersPage }) =>
      function AdminUsers() {
        useDocumentTitle("Users", "Admin");
        const search = adminUsersRoute.useSearch();
        const navigate = adminUsersRoute.useNavigate();
        const isStillHere = useIsStillOn(adminUsersRoute.useMatch().pathname);
        return (
          <AdminUsersPage
            search={search}
            onSearchChange={(next, options) => {
              if (isStillHere()) void navigate({ to: ".", search: next, replace: options?.replace, resetScroll: false });
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
  loader: ({ context: { queryClient }, params }) =>
    settled(
      queryClient.ensureQueryData(adminUserQuery(params.userId)),
      queryClient.ensureQueryData(adminUserSessionsQuery(params.userId)),
      queryClient.ensureQueryData(metaQuery),
    ),
}).lazy(
  lazyPage(
    () => import("../../features/admin/routes/admin-user-page"),
    ({ AdminUserPage }) =>
      function AdminUser() {
        const { userId } = adminUserRoute.useParams();
        useDocumentTitle(useQuery(adminUserQuery(userId)).data?.user.name ?? "User", "Users", "Admin");
        const { session } = adminUserRoute.useRouteContext();
        return <AdminUserPage key={userId} userId={userId} currentUserId={session.user.id} currentSessionId={session.session.id} />;
      },
  ),
);

const organizations = adminOrganizationListQuerySchema.shape;
const organizationListSearchSchema = z.object({
  q: organizations.q.catch(undefined),
  limit: organizations.limit.catch(ADMIN_DEFAULT_PAGE_SIZE),
  offset: organizations.offset.catch(0),
});

export const adminOrganizationsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/organizations",
  validateSearch: organizationListSearchSchema,
  search: { middlewares: [stripSearchParams({ limit: ADMIN_DEFAULT_PAGE_SIZE, offset: 0 })] },
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps, cause }) => (cause === "stay" ? undefined : settled(queryClient.ensureQueryData(adminOrganizationsQuery(deps)))),
}).lazy(
  lazyPage(
    () => import("../../features/admin/routes/admin-organizations-page"),
    ({ AdminOrganizationsPage }) =>
      function AdminOrganizations() {
        useDocumentTitle("Organizations", "Admin");
        const search = adminOrganizationsRoute.useSearch();
        const navigate = adminOrganizationsRoute.useNavigate();
        const isStillHere = useIsStillOn(adminOrganizationsRoute.useMatch().pathname);
        return (
          <AdminOrganizationsPage
            search={search}
            onSearchChange={(next) => {
              if (isStillHere()) void navigate({ to: ".", search: next, resetScroll: false });
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
  loader: ({ context: { queryClient }, params }) => settled(queryClient.ensureQueryData(adminOrganizationQuery(params.organizationId))),
}).lazy(
  lazyPage(
    () =>
      Promise.all([
        import("../../features/admin/routes/admin-organization-page"),
        import("../../features/billing/components/admin-organization-billing-panel"),
      ]),
    ([{ AdminOrganizationPage }, { AdminOrganizationBillingPanel }]) =>
      function AdminOrganization() {
        const { organizationId } = adminOrganizationRoute.useParams();
        useDocumentTitle(useQuery(adminOrganizationQuery(organizationId)).data?.organization.name ?? "Organization", "Organizations", "Admin");
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

const audit = auditLogQuerySchema.shape;
const auditLogSearchSchema = z
  .object({
    action: audit.action.catch(undefined),
    actorId: audit.actorId.catch(undefined),
    targetId: audit.targetId.catch(undefined),
    organizationId: audit.organizationId.catch(undefined),
    from: audit.from.catch(undefined),
    to: audit.to.catch(undefined),
    limit: audit.limit.catch(ADMIN_DEFAULT_PAGE_SIZE),
    offset: audit.offset.catch(0),
  })
  .transform(withOrderedRange("from", "to"));

export const adminAuditLogRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/audit-log",
  validateSearch: auditLogSearchSchema,
  search: { middlewares: [stripSearchParams({ limit: ADMIN_DEFAULT_PAGE_SIZE, offset: 0 })] },
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps, cause }) => (cause === "stay" ? undefined : settled(queryClient.ensureQueryData(adminAuditLogQuery(deps)))),
}).lazy(
  lazyPage(
    () => import("../../features/admin/routes/admin-audit-log-page"),
    ({ AdminAuditLogPage }) =>
      function AdminAuditLog() {
        useDocumentTitle("Audit log", "Admin");
        const search = adminAuditLogRoute.useSearch();
        const navigate = adminAuditLogRoute.useNavigate();
        const isStillHere = useIsStillOn(adminAuditLogRoute.useMatch().pathname);
        return (
          <AdminAuditLogPage
            search={search}
            onSearchChange={(next) => {
              if (isStillHere()) void navigate({ to: ".", search: next, resetScroll: false });
            }}
          />
        );
      },
  ),
);

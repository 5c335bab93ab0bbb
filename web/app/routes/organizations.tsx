import { createRoute } from "@tanstack/react-router";
import { organizationQuery } from "../../features/organizations/api/organizations";
import { metaQuery } from "../../lib/meta";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { authedRoute } from "./root";

/** /organizations/new and an organization's settings: /organizations/$organizationId/settings[/members|/invitations|/teams|/danger]. */

export const createOrganizationRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/organizations/new",
  loader: ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(metaQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/create-organization-page"),
    (page) => page.CreateOrganizationPage,
  ),
);

export const organizationSettingsRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/organizations/$organizationId/settings",
  loader: ({ context: { queryClient }, params }) =>
    settled(queryClient.ensureQueryData(organizationQuery(params.organizationId)), queryClient.ensureQueryData(metaQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/settings/organization-settings-layout"),
    ({ OrganizationSettingsLayout }) =>
      function OrganizationSettings() {
        const { organizationId } = organizationSettingsRoute.useParams();
        const { session } = organizationSettingsRoute.useRouteContext();
        return <OrganizationSettingsLayout key={organizationId} organizationId={organizationId} userId={session.user.id} />;
      },
  ),
);

export const generalSettingsRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/" }).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/settings/general-settings-page"),
    (page) => page.GeneralSettingsPage,
  ),
);

export const membersRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/members" }).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/settings/members-page"),
    (page) => page.MembersPage,
  ),
);

export const invitationsRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/invitations" }).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/settings/invitations-page"),
    (page) => page.InvitationsPage,
  ),
);

export const teamsRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/teams" }).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/settings/teams-page"),
    (page) => page.TeamsPage,
  ),
);

export const dangerZoneRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/danger" }).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/settings/danger-zone-page"),
    (page) => page.DangerZonePage,
  ),
);

import { useQuery } from "@tanstack/react-query";
import { createRoute, stripSearchParams } from "@tanstack/react-router";
import { useMemo } from "react";
import { ADMIN_DEFAULT_PAGE_SIZE } from "../../../common/admin-limits";
import type { OrganizationAuditLogSearch } from "../../features/organizations/routes/settings/audit-log-page";
import { metaQuery } from "../../lib/meta";
import { DocumentTitle, withDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { authedRoute, textSearch, unparsedSearch, type RouterContext } from "./root";

// The query modules (and the audit log's search schema, with zod) load with the pages and loaders that use them,
// not with the route definitions, which are on every page's first load.
const organizationsApi = () => import("../../features/organizations/api/organizations");
const billingQueries = () => import("../../features/billing/api/billing-queries");
const settingsTitle = () => import("./settings-title");

/**
 * /organizations/new and an organization's settings: /organizations/$organizationId/settings, with the tabs
 * [/members|/invitations|/teams|/billing|/audit-log|/security|/sso|/directory-sync|/webhooks|/api-keys|/danger].
 *
 * Billing is its own feature, composed here: the settings layout shows its payment banner, the members, invitations
 * and teams pages get the plan's limits as props (`planLimit`, read with the billing feature's `usePlanLimit`), and
 * the Billing tab is the billing feature's page.
 */

export const createOrganizationRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/organizations/new",
  loader: ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(metaQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/create-organization-page"),
    (page) => withDocumentTitle(page.CreateOrganizationPage, "Create an organization"),
  ),
);

export const organizationSettingsRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/organizations/$organizationId/settings",
  // The billing overview feeds the payment banner above every tab: read with the page, it shows without a jump.
  loader: async ({ context: { queryClient }, params }) => {
    const [{ organizationQuery }, { billingOverviewQuery }] = await Promise.all([organizationsApi(), billingQueries()]);
    await settled(
      queryClient.ensureQueryData(organizationQuery(params.organizationId)),
      queryClient.ensureQueryData(metaQuery),
      queryClient.ensureQueryData(billingOverviewQuery(params.organizationId)),
    );
  },
}).lazy(
  lazyPage(
    () =>
      Promise.all([
        import("../../features/organizations/routes/settings/organization-settings-layout"),
        import("../../features/billing/components/payment-banner"),
        organizationsApi(),
      ]),
    ([{ OrganizationSettingsLayout }, { PaymentBanner }, { organizationQuery }]) =>
      function OrganizationSettings() {
        const { organizationId } = organizationSettingsRoute.useParams();
        const { session } = organizationSettingsRoute.useRouteContext();
        const organization = useQuery(organizationQuery(organizationId));
        return (
          <>
            {/* The layout shows no tab then, so no tab names the page. */}
            {organization.isError ? <DocumentTitle parts={["Organization not found"]} /> : null}
            <OrganizationSettingsLayout
              key={organizationId}
              organizationId={organizationId}
              userId={session.user.id}
              banner={
                organization.data ? (
                  <PaymentBanner organizationId={organizationId} organizationName={organization.data.name} />
                ) : null
              }
            />
          </>
        );
      },
  ),
);

export const generalSettingsRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/" }).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/settings/general-settings-page"), settingsTitle()]),
    ([{ GeneralSettingsPage }, { useSettingsTitle }]) =>
      function General() {
        useSettingsTitle("General", generalSettingsRoute.useParams().organizationId);
        return <GeneralSettingsPage />;
      },
  ),
);

/** The plan's limits are read with the page, so its usage line and locked state show without a jump. */
const loadPlanLimits = async ({
  context: { queryClient },
  params,
}: {
  context: RouterContext;
  params: { organizationId: string };
}) => {
  const { billingOverviewQuery } = await billingQueries();
  await settled(queryClient.ensureQueryData(billingOverviewQuery(params.organizationId)));
};

const planLimit = () => import("../../features/billing/components/plan-limit");

export const membersRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/members",
  loader: loadPlanLimits,
}).lazy(
  lazyPage(
    () =>
      Promise.all([import("../../features/organizations/routes/settings/members-page"), planLimit(), settingsTitle()]),
    ([{ MembersPage }, { usePlanLimit }, { useSettingsTitle }]) =>
      function Members() {
        const { organizationId } = membersRoute.useParams();
        useSettingsTitle("Members", organizationId);
        return <MembersPage planLimit={usePlanLimit(organizationId, "members")} />;
      },
  ),
);

export const invitationsRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/invitations",
  loader: loadPlanLimits,
}).lazy(
  lazyPage(
    () =>
      Promise.all([
        import("../../features/organizations/routes/settings/invitations-page"),
        planLimit(),
        settingsTitle(),
      ]),
    ([{ InvitationsPage }, { usePlanLimit }, { useSettingsTitle }]) =>
      function Invitations() {
        const { organizationId } = invitationsRoute.useParams();
        useSettingsTitle("Invitations", organizationId);
        return <InvitationsPage planLimit={usePlanLimit(organizationId, "members")} />;
      },
  ),
);

export const teamsRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/teams",
  loader: loadPlanLimits,
}).lazy(
  lazyPage(
    () =>
      Promise.all([
        import("../../features/organizations/routes/settings/teams-page"),
        planLimit(),
        settingsTitle(),
        organizationsApi(),
      ]),
    ([{ TeamsPage }, { usePlanLimit }, { useSettingsTitle }, { useTeams }]) =>
      function Teams() {
        const { organizationId } = teamsRoute.useParams();
        useSettingsTitle("Teams", organizationId);
        // Teams are counted where they are listed (the organizations feature); the limit is the plan's.
        const teams = useTeams(organizationId);
        return <TeamsPage planLimit={usePlanLimit(organizationId, "teams", teams.data?.length)} />;
      },
  ),
);

/** `?checkout=<id>` or `?checkout=returned`: where the provider's hosted checkout sends the buyer back. */
export const billingRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/billing",
  validateSearch: textSearch("checkout"),
  loader: async ({ context: { queryClient }, params }) => {
    const { billingOverviewQuery, plansQuery } = await billingQueries();
    await settled(
      queryClient.ensureQueryData(billingOverviewQuery(params.organizationId)),
      queryClient.ensureQueryData(plansQuery),
    );
  },
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/billing/routes/billing-page"), settingsTitle()]),
    ([{ BillingPage }, { useSettingsTitle }]) =>
      function Billing() {
        const { organizationId } = billingRoute.useParams();
        useSettingsTitle("Billing", organizationId);
        const { checkout } = billingRoute.useSearch();
        return <BillingPage key={organizationId} organizationId={organizationId} checkout={checkout} />;
      },
  ),
);

/**
 * The audit log's filters and page, in the address. A value that does not parse (a hand-edited or outdated address)
 * reads as its default, and a range that ends before it starts keeps only its start, rather than failing the page:
 * the loader and the page parse the address with routes/list-search.ts.
 */
export const auditLogRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/audit-log",
  validateSearch: unparsedSearch<OrganizationAuditLogSearch>(),
  // The defaults stay out of the address.
  search: { middlewares: [stripSearchParams({ limit: ADMIN_DEFAULT_PAGE_SIZE, offset: 0 })] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context: { queryClient }, params, deps }) => {
    const [{ organizationKeys }, { rolesAllow }, { organizationAuditLogQuery }, { organizationAuditLogSearchSchema }] =
      await Promise.all([
        organizationsApi(),
        import("../../../common/permissions"),
        import("../../features/organizations/api/audit-log"),
        import("./list-search"),
      ]);
    // The server refuses members: the page is read ahead only for a role already known to see it (from the tabs).
    const membership = queryClient.getQueryData<{ role: string }>(organizationKeys.activeMember(params.organizationId));
    if (!rolesAllow(membership?.role, { auditLog: ["list"] })) return;
    await settled(
      queryClient.ensureQueryData(
        organizationAuditLogQuery(params.organizationId, organizationAuditLogSearchSchema.parse(deps)),
      ),
    );
  },
}).lazy(
  lazyPage(
    () =>
      Promise.all([
        import("../../features/organizations/routes/settings/audit-log-page"),
        settingsTitle(),
        import("./list-search"),
      ]),
    ([{ OrganizationAuditLogPage }, { useSettingsTitle }, { organizationAuditLogSearchSchema }]) =>
      function AuditLog() {
        useSettingsTitle("Audit log", auditLogRoute.useParams().organizationId);
        const address = auditLogRoute.useSearch();
        const search = useMemo(() => organizationAuditLogSearchSchema.parse(address), [address]);
        const navigate = auditLogRoute.useNavigate();
        return (
          <OrganizationAuditLogPage
            search={search}
            onSearchChange={(update) => {
              const search = (address: object) => update(organizationAuditLogSearchSchema.parse(address));
              void navigate({ to: ".", search, resetScroll: false });
            }}
          />
        );
      },
  ),
);

export const organizationSecurityRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/security",
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/settings/security-page"), settingsTitle()]),
    ([{ SecurityPage }, { useSettingsTitle }]) =>
      function Security() {
        useSettingsTitle("Security", organizationSecurityRoute.useParams().organizationId);
        return <SecurityPage />;
      },
  ),
);

/** `?test=<providerId>` (and better-auth's `error`): where a connection's test sign-in comes back. */
export const organizationSsoRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/sso",
  validateSearch: textSearch("test", "error"),
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/settings/sso-page"), settingsTitle()]),
    ([{ SsoPage }, { useSettingsTitle }]) =>
      function SingleSignOn() {
        useSettingsTitle("Single sign-on", organizationSsoRoute.useParams().organizationId);
        return <SsoPage search={organizationSsoRoute.useSearch()} />;
      },
  ),
);

export const organizationDirectorySyncRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/directory-sync",
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/settings/directory-sync-page"), settingsTitle()]),
    ([{ DirectorySyncPage }, { useSettingsTitle }]) =>
      function DirectorySync() {
        useSettingsTitle("Directory sync", organizationDirectorySyncRoute.useParams().organizationId);
        return <DirectorySyncPage />;
      },
  ),
);

export const organizationWebhooksRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/webhooks",
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/settings/webhooks-page"), settingsTitle()]),
    ([{ WebhooksPage }, { useSettingsTitle }]) =>
      function Webhooks() {
        useSettingsTitle("Webhooks", organizationWebhooksRoute.useParams().organizationId);
        return <WebhooksPage />;
      },
  ),
);

export const organizationApiKeysRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/api-keys",
}).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/settings/api-keys-page"), settingsTitle()]),
    ([{ ApiKeysPage }, { useSettingsTitle }]) =>
      function ApiKeys() {
        useSettingsTitle("API keys", organizationApiKeysRoute.useParams().organizationId);
        return <ApiKeysPage />;
      },
  ),
);

export const dangerZoneRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/danger" }).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/settings/danger-zone-page"), settingsTitle()]),
    ([{ DangerZonePage }, { useSettingsTitle }]) =>
      function DangerZone() {
        useSettingsTitle("Danger zone", dangerZoneRoute.useParams().organizationId);
        return <DangerZonePage />;
      },
  ),
);

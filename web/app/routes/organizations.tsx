import { useQuery } from "@tanstack/react-query";
import { createRoute, stripSearchParams } from "@tanstack/react-router";
import { z } from "zod";
import { ADMIN_DEFAULT_PAGE_SIZE } from "../../../common/admin.schemas";
import { auditLogQuerySchema } from "../../../common/audit.schemas";
import { rolesAllow } from "../../../common/permissions";
import { billingOverviewQuery, plansQuery } from "../../features/billing/api/billing-queries";
import { organizationAuditLogQuery } from "../../features/organizations/api/audit-log";
import { organizationKeys, organizationQuery, useTeams } from "../../features/organizations/api/organizations";
import { metaQuery } from "../../lib/meta";
import { DocumentTitle, useDocumentTitle, withDocumentTitle } from "../document-title";
import { lazyPage } from "./lazy-page";
import { settled } from "./prefetch";
import { authedRoute, optionalText, type RouterContext } from "./root";

/**
 * /organizations/new and an organization's settings: /organizations/$organizationId/settings[/members|/invitations|/teams|/billing|/audit-log|/danger].
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

/** A settings tab's title: "Members · Acme · Atrium" (the organization's name from the layout's query). */
function useSettingsTitle(tab: string, organizationId: string) {
  useDocumentTitle(tab, useQuery(organizationQuery(organizationId)).data?.name);
}

export const organizationSettingsRoute = createRoute({
  getParentRoute: () => authedRoute,
  path: "/organizations/$organizationId/settings",
  // The billing overview feeds the payment banner above every tab: read with the page, it shows without a jump.
  loader: ({ context: { queryClient }, params }) =>
    settled(
      queryClient.ensureQueryData(organizationQuery(params.organizationId)),
      queryClient.ensureQueryData(metaQuery),
      queryClient.ensureQueryData(billingOverviewQuery(params.organizationId)),
    ),
}).lazy(
  lazyPage(
    () =>
      Promise.all([
        import("../../features/organizations/routes/settings/organization-settings-layout"),
        import("../../features/billing/components/payment-banner"),
      ]),
    ([{ OrganizationSettingsLayout }, { PaymentBanner }]) =>
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
              banner={organization.data ? <PaymentBanner organizationId={organizationId} organizationName={organization.data.name} /> : null}
            />
          </>
        );
      },
  ),
);

export const generalSettingsRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/" }).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/settings/general-settings-page"),
    ({ GeneralSettingsPage }) =>
      function General() {
        useSettingsTitle("General", generalSettingsRoute.useParams().organizationId);
        return <GeneralSettingsPage />;
      },
  ),
);

/** The plan's limits are read with the page, so its usage line and locked state show without a jump. */
const loadPlanLimits = ({ context: { queryClient }, params }: { context: RouterContext; params: { organizationId: string } }) =>
  settled(queryClient.ensureQueryData(billingOverviewQuery(params.organizationId)));

const planLimit = () => import("../../features/billing/components/plan-limit");

export const membersRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/members", loader: loadPlanLimits }).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/settings/members-page"), planLimit()]),
    ([{ MembersPage }, { usePlanLimit }]) =>
      function Members() {
        const { organizationId } = membersRoute.useParams();
        useSettingsTitle("Members", organizationId);
        return <MembersPage planLimit={usePlanLimit(organizationId, "members")} />;
      },
  ),
);

export const invitationsRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/invitations", loader: loadPlanLimits }).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/settings/invitations-page"), planLimit()]),
    ([{ InvitationsPage }, { usePlanLimit }]) =>
      function Invitations() {
        const { organizationId } = invitationsRoute.useParams();
        useSettingsTitle("Invitations", organizationId);
        return <InvitationsPage planLimit={usePlanLimit(organizationId, "members")} />;
      },
  ),
);

export const teamsRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/teams", loader: loadPlanLimits }).lazy(
  lazyPage(
    () => Promise.all([import("../../features/organizations/routes/settings/teams-page"), planLimit()]),
    ([{ TeamsPage }, { usePlanLimit }]) =>
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
  validateSearch: z.object({ checkout: optionalText }),
  loader: ({ context: { queryClient }, params }) =>
    settled(queryClient.ensureQueryData(billingOverviewQuery(params.organizationId)), queryClient.ensureQueryData(plansQuery)),
}).lazy(
  lazyPage(
    () => import("../../features/billing/routes/billing-page"),
    ({ BillingPage }) =>
      function Billing() {
        const { organizationId } = billingRoute.useParams();
        useSettingsTitle("Billing", organizationId);
        const { checkout } = billingRoute.useSearch();
        return <BillingPage key={organizationId} organizationId={organizationId} checkout={checkout} />;
      },
  ),
);

const audit = auditLogQuerySchema.shape;
/**
 * The audit log's filters and page. A value that does not parse (a hand-edited or outdated address) reads as its
 * default, and a range that ends before it starts keeps only its start, rather than failing the page.
 */
const auditLogSearchSchema = z
  .object({
    action: audit.action.catch(undefined),
    from: audit.from.catch(undefined),
    to: audit.to.catch(undefined),
    limit: audit.limit.catch(ADMIN_DEFAULT_PAGE_SIZE),
    offset: audit.offset.catch(0),
  })
  .transform((search) => (search.from && search.to && search.from > search.to ? { ...search, to: undefined } : search));

export const auditLogRoute = createRoute({
  getParentRoute: () => organizationSettingsRoute,
  path: "/audit-log",
  validateSearch: auditLogSearchSchema,
  // The defaults stay out of the address.
  search: { middlewares: [stripSearchParams({ limit: ADMIN_DEFAULT_PAGE_SIZE, offset: 0 })] },
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, params, deps }) => {
    // The server refuses members: the page is read ahead only for a role already known to see it (from the tabs).
    const membership = queryClient.getQueryData<{ role: string }>(organizationKeys.activeMember(params.organizationId));
    return rolesAllow(membership?.role, { auditLog: ["list"] })
      ? settled(queryClient.ensureQueryData(organizationAuditLogQuery(params.organizationId, deps)))
      : undefined;
  },
}).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/settings/audit-log-page"),
    ({ OrganizationAuditLogPage }) =>
      function AuditLog() {
        useSettingsTitle("Audit log", auditLogRoute.useParams().organizationId);
        const search = auditLogRoute.useSearch();
        const navigate = auditLogRoute.useNavigate();
        return <OrganizationAuditLogPage search={search} onSearchChange={(next) => navigate({ to: ".", search: next, resetScroll: false })} />;
      },
  ),
);

export const dangerZoneRoute = createRoute({ getParentRoute: () => organizationSettingsRoute, path: "/danger" }).lazy(
  lazyPage(
    () => import("../../features/organizations/routes/settings/danger-zone-page"),
    ({ DangerZonePage }) =>
      function DangerZone() {
        useSettingsTitle("Danger zone", dangerZoneRoute.useParams().organizationId);
        return <DangerZonePage />;
      },
  ),
);

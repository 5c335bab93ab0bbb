import { useQuery } from "@tanstack/react-query";
import { Link, Outlet } from "@tanstack/react-router";
import { useEffect, useRef, type ReactNode } from "react";
import { Avatar } from "../../../../components/ui/avatar";
import { LoadingBlock } from "../../../../components/ui/spinner";
import { activeTabProps, tabLinkClass, TabNav } from "../../../../components/ui/tabs";
import { rolesAllow } from "../../../../../common/permissions";
import { ApiError, errorMessage } from "../../../../lib/api-error";
import { isTwoFactorRequired, twoFactorSetupHref } from "../../../../lib/two-factor-required";
import { useAppMeta } from "../../../../lib/meta";
import { useSession } from "../../../../lib/session";
import { organizationQuery, useMyMembership, useSetActiveOrganization } from "../../api/organizations";
import { OrganizationProvider, RoleBadge } from "../../components/organization-context";

const tabClass = tabLinkClass;
const activeTab = activeTabProps;

/** What the API answers for an organization that does not exist (any more) or that the caller is not a member of. */
const isNotFoundOrForeign = (error: unknown) =>
  error instanceof ApiError &&
  (error.status === 404 ||
    error.code === "ORGANIZATION_NOT_FOUND" ||
    error.code === "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");

/** An organization address that leads nowhere still leads somewhere: home, where the person's organizations are. */
function OrganizationUnavailable({ error }: { error: unknown }) {
  if (isTwoFactorRequired(error)) return <SecondFactorRequired />;
  const isNotFound = isNotFoundOrForeign(error);
  return (
    <div className="mx-auto max-w-md px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">
        {isNotFound ? "Organization not found" : "This organization could not load"}
      </h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">
        {isNotFound
          ? "It does not exist, it was deleted, or you are not a member of it. Ask one of its owners or admins for an invitation."
          : errorMessage(error)}
      </p>
      <Link to="/" className="mt-6 inline-block font-medium text-brand-600 hover:underline dark:text-brand-400">
        Go to your organizations
      </Link>
    </div>
  );
}

/** The organization requires a second factor the person does not have: why, and where to set one up. */
function SecondFactorRequired() {
  const here = `${window.location.pathname}${window.location.search}`;
  return (
    <div className="mx-auto max-w-md px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">This organization requires a second factor</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">
        Its owners ask every member to sign in with a second factor: an authenticator app or a passkey. Set one up, and
        you will be brought back here.
      </p>
      <a
        href={twoFactorSetupHref(here)}
        className="mt-6 inline-block font-medium text-brand-600 hover:underline dark:text-brand-400"
      >
        Set up a second factor
      </a>
    </div>
  );
}

/**
 * The page's organization becomes the session's active one, so the header's switcher (which shows the active
 * organization) agrees with the page, e.g. right after signing in, or on a link to another of one's organizations.
 * Once per page: a failure is not retried in a loop, and a switch the person makes afterwards is theirs.
 */
function useActivateOrganization(organizationId: string, isMember: boolean) {
  const session = useSession();
  const { mutate } = useSetActiveOrganization();
  const activated = useRef<string | null>(null);
  const activeId = session.data?.session.activeOrganizationId ?? null;
  const hasSession = Boolean(session.data);
  useEffect(() => {
    if (!isMember || !hasSession || activated.current === organizationId) return;
    activated.current = organizationId;
    if (activeId !== organizationId) mutate({ organizationId });
  }, [isMember, hasSession, activeId, organizationId, mutate]);
}

/** `banner` is shown above every tab (web/app passes the billing feature's payment notice). */
/** The tabs of the organization's connections to other systems, for its owners and admins. */
const ADMIN_TABS = [
  { to: "/organizations/$organizationId/settings/sso", label: "Single sign-on" },
  { to: "/organizations/$organizationId/settings/directory-sync", label: "Directory sync" },
  { to: "/organizations/$organizationId/settings/webhooks", label: "Webhooks" },
  { to: "/organizations/$organizationId/settings/api-keys", label: "API keys" },
] as const;

export function OrganizationSettingsLayout({
  organizationId,
  userId,
  banner,
}: {
  organizationId: string;
  userId: string;
  banner?: ReactNode;
}) {
  const organization = useQuery(organizationQuery(organizationId));
  const membership = useMyMembership(organizationId);
  const meta = useAppMeta();
  useActivateOrganization(organizationId, membership.isSuccess);

  if (organization.isPending || membership.isPending) return <LoadingBlock label="Loading organization…" />;
  if (organization.isError || membership.isError)
    return <OrganizationUnavailable error={organization.error ?? membership.error} />;
  const role = membership.data.role;
  const params = { organizationId };
  // Tabs for what the role may do; opened by address anyway, those pages say who may.
  const canDelete = rolesAllow(role, { organization: ["delete"] }) && !meta.data?.organizations.isDeletionDisabled;
  const canSeeAuditLog = rolesAllow(role, { auditLog: ["list"] });
  const canSetUpSso = rolesAllow(role, { organization: ["update"] });

  return (
    <OrganizationProvider organization={organization.data} role={role} userId={userId}>
      <div className="mx-auto max-w-5xl px-4 py-10">
        {banner ? <div className="mb-6 empty:hidden">{banner}</div> : null}
        <div className="mb-8 flex items-center gap-4">
          <Avatar name={organization.data.name} image={organization.data.logo} size="lg" />
          <div className="min-w-0">
            <h1 className="text-2xl font-semibold tracking-tight">{organization.data.name}</h1>
            <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-zinc-500 dark:text-zinc-400">
              <span className="break-all">/{organization.data.slug}</span>
              <span aria-hidden="true">·</span>
              <span className="whitespace-nowrap">
                Your role <RoleBadge role={role} />
              </span>
            </p>
          </div>
        </div>
        <TabNav label="Organization settings">
          <Link
            to="/organizations/$organizationId/settings"
            params={params}
            activeOptions={{ exact: true }}
            className={tabClass}
            activeProps={activeTab}
          >
            General
          </Link>
          <Link
            to="/organizations/$organizationId/settings/members"
            params={params}
            className={tabClass}
            activeProps={activeTab}
          >
            Members
          </Link>
          <Link
            to="/organizations/$organizationId/settings/invitations"
            params={params}
            className={tabClass}
            activeProps={activeTab}
          >
            Invitations
          </Link>
          <Link
            to="/organizations/$organizationId/settings/teams"
            params={params}
            className={tabClass}
            activeProps={activeTab}
          >
            Teams
          </Link>
          <Link
            to="/organizations/$organizationId/settings/billing"
            params={params}
            className={tabClass}
            activeProps={activeTab}
          >
            Billing
          </Link>
          {canSeeAuditLog ? (
            <Link
              to="/organizations/$organizationId/settings/audit-log"
              params={params}
              className={tabClass}
              activeProps={activeTab}
            >
              Audit log
            </Link>
          ) : null}
          <Link
            to="/organizations/$organizationId/settings/security"
            params={params}
            className={tabClass}
            activeProps={activeTab}
          >
            Security
          </Link>
          {canSetUpSso
            ? ADMIN_TABS.map((tab) => (
                <Link key={tab.to} to={tab.to} params={params} className={tabClass} activeProps={activeTab}>
                  {tab.label}
                </Link>
              ))
            : null}
          {canDelete ? (
            <Link
              to="/organizations/$organizationId/settings/danger"
              params={params}
              className={tabClass}
              activeProps={activeTab}
            >
              Danger zone
            </Link>
          ) : null}
        </TabNav>
        <Outlet />
      </div>
    </OrganizationProvider>
  );
}

import { useQuery } from "@tanstack/react-query";
import { Link, Outlet } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Alert } from "../../../../components/ui/alert";
import { Avatar } from "../../../../components/ui/avatar";
import { LoadingBlock } from "../../../../components/ui/spinner";
import { activeTabProps, tabLinkClass, TabNav } from "../../../../components/ui/tabs";
import { rolesAllow } from "../../../../../common/permissions";
import { errorMessage } from "../../../../lib/api-error";
import { useAppMeta } from "../../../../lib/meta";
import { organizationQuery, useMyMembership } from "../../api/organizations";
import { OrganizationProvider, RoleBadge } from "../../components/organization-context";

const tabClass = tabLinkClass;
const activeTab = activeTabProps;

/** `banner` is shown above every tab (web/app passes the billing feature's payment notice). */
export function OrganizationSettingsLayout({ organizationId, userId, banner }: { organizationId: string; userId: string; banner?: ReactNode }) {
  const organization = useQuery(organizationQuery(organizationId));
  const membership = useMyMembership(organizationId);
  const meta = useAppMeta();

  if (organization.isPending || membership.isPending) return <LoadingBlock label="Loading organization…" />;
  if (organization.isError || membership.isError) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-10">
        <Alert tone="error" title="This organization is not available">
          {errorMessage(organization.error ?? membership.error)}
        </Alert>
      </div>
    );
  }
  const role = membership.data.role;
  const params = { organizationId };
  const canDelete = role.split(",").includes("owner") && !meta.data?.organizations.isDeletionDisabled;
  const canSeeAuditLog = rolesAllow(role, { auditLog: ["list"] });

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
          <Link to="/organizations/$organizationId/settings" params={params} activeOptions={{ exact: true }} className={tabClass} activeProps={activeTab}>
            General
          </Link>
          <Link to="/organizations/$organizationId/settings/members" params={params} className={tabClass} activeProps={activeTab}>
            Members
          </Link>
          <Link to="/organizations/$organizationId/settings/invitations" params={params} className={tabClass} activeProps={activeTab}>
            Invitations
          </Link>
          <Link to="/organizations/$organizationId/settings/teams" params={params} className={tabClass} activeProps={activeTab}>
            Teams
          </Link>
          <Link to="/organizations/$organizationId/settings/billing" params={params} className={tabClass} activeProps={activeTab}>
            Billing
          </Link>
          {canSeeAuditLog ? (
            <Link to="/organizations/$organizationId/settings/audit-log" params={params} className={tabClass} activeProps={activeTab}>
              Audit log
            </Link>
          ) : null}
          {canDelete ? (
            <Link to="/organizations/$organizationId/settings/danger" params={params} className={tabClass} activeProps={activeTab}>
              Danger zone
            </Link>
          ) : null}
        </TabNav>
        <Outlet />
      </div>
    </OrganizationProvider>
  );
}

import { Link } from "@tanstack/react-router";
import { Alert } from "../../../components/ui/alert";
import { Avatar } from "../../../components/ui/avatar";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { EmptyState } from "../../../components/ui/page";
import { LoadingBlock } from "../../../components/ui/spinner";
import { errorMessage } from "../../../lib/api-error";
import { formatRelative } from "../../../lib/format";
import { useAppMeta } from "../../../lib/meta";
import { useSession } from "../../../lib/session";
import {
  useAcceptInvitation,
  useOrganizations,
  useRejectInvitation,
  useSetActiveOrganization,
  useUserInvitations,
  type Invitation,
} from "../api/organizations";
import { useJoinableOrganizations, useJoinByDomain } from "../api/domain-join";
import { roleLabel } from "./organization-context";

type InvitationWithName = Invitation & { organizationName?: string };

/**
 * The signed-in home's organization section: pending invitations first, then organizations the person may join by
 * their verified address's domain, then the person's organizations.
 */
export function YourOrganizations() {
  const session = useSession();
  const organizations = useOrganizations();
  const invitations = useUserInvitations();
  const setActive = useSetActiveOrganization();
  const accept = useAcceptInvitation({ welcome: (name) => `You joined ${name ?? "the organization"}` });
  const reject = useRejectInvitation();
  const meta = useAppMeta();
  const joinable = useJoinableOrganizations();
  const join = useJoinByDomain();
  const busy = accept.isPending
    ? `${accept.variables.invitationId}:accept`
    : reject.isPending
      ? `${reject.variables.invitationId}:reject`
      : null;
  const activeId = session.data?.session.activeOrganizationId;
  const pending = (invitations.data ?? []).filter(
    (invitation) => invitation.status === "pending" && new Date(invitation.expiresAt).getTime() > Date.now(),
  );
  const mayCreate = meta.data?.organizations.whoMayCreate !== "nobody";

  function respond(invitation: InvitationWithName, action: "accept" | "reject") {
    if (action === "reject") return reject.mutate({ invitationId: invitation.id });
    accept.mutate({
      invitationId: invitation.id,
      organizationId: invitation.organizationId,
      organizationName: invitation.organizationName,
    });
  }

  return (
    <div className="space-y-6">
      {pending.length > 0 ? (
        <Card className="border-brand-200 dark:border-brand-700/50">
          <CardHeader title="Invitations for you" description="Organizations that invited you to join." />
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {pending.map((invitation) => {
              const withName: InvitationWithName = invitation;
              return (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div>
                    <p className="font-medium">{withName.organizationName ?? "An organization"}</p>
                    <p className="text-xs text-zinc-500 dark:text-zinc-400">
                      As {roleLabel(invitation.role)} · expires {formatRelative(invitation.expiresAt)}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      isLoading={busy === `${invitation.id}:accept`}
                      disabled={busy !== null}
                      onClick={() => respond(withName, "accept")}
                    >
                      Accept
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      isLoading={busy === `${invitation.id}:reject`}
                      disabled={busy !== null}
                      onClick={() => respond(withName, "reject")}
                    >
                      Decline
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        </Card>
      ) : null}
      {joinable.data?.length ? (
        <Card className="border-brand-200 dark:border-brand-700/50">
          <CardHeader
            title="Join your team"
            description="These organizations let people with a verified address at their domain join as members."
          />
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {joinable.data.map((organization) => (
              <li key={organization.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="flex min-w-0 items-center gap-3">
                  <Avatar name={organization.name} size="sm" />
                  <div className="min-w-0">
                    <p className="font-medium">{organization.name}</p>
                    <p className="text-xs text-zinc-500 dark:text-zinc-400">For @{organization.domain} addresses</p>
                  </div>
                </div>
                <Button
                  size="sm"
                  isLoading={join.isPending && join.variables === organization.id}
                  disabled={join.isPending}
                  aria-label={`Join ${organization.name}`}
                  onClick={() => join.mutate(organization.id)}
                >
                  Join
                </Button>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card>
        <CardHeader
          title="Your organizations"
          description="Switch the active one here or from the header."
          action={
            mayCreate ? (
              <Link
                to="/organizations/new"
                className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
              >
                New organization
              </Link>
            ) : null
          }
        />
        {organizations.isPending ? <LoadingBlock label="Loading organizations…" /> : null}
        {organizations.isError ? <Alert tone="error">{errorMessage(organizations.error)}</Alert> : null}
        {organizations.data?.length === 0 ? (
          <EmptyState title="No organizations yet">
            {mayCreate ? "Create one to invite your team." : "Ask an administrator to invite you to one."}
          </EmptyState>
        ) : null}
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {organizations.data?.map((organization) => (
            <li key={organization.id} className="flex items-center justify-between gap-3 py-3">
              <div className="flex min-w-0 items-center gap-3">
                <Avatar name={organization.name} image={organization.logo} size="sm" />
                <div className="min-w-0">
                  <p className="font-medium">
                    {organization.name}
                    {organization.id === activeId ? (
                      <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-700 dark:bg-emerald-900/50 dark:text-emerald-300">
                        Active
                      </span>
                    ) : null}
                  </p>
                  <p className="text-xs text-zinc-500 dark:text-zinc-400">/{organization.slug}</p>
                </div>
              </div>
              <div className="flex shrink-0 gap-2">
                {organization.id === activeId ? null : (
                  <Button
                    size="sm"
                    variant="secondary"
                    isLoading={setActive.isPending && setActive.variables.organizationId === organization.id}
                    onClick={() => setActive.mutate({ organizationId: organization.id })}
                  >
                    Make active
                  </Button>
                )}
                <Link
                  to="/organizations/$organizationId/settings"
                  params={{ organizationId: organization.id }}
                  className="rounded-lg px-3 py-1.5 text-sm font-medium text-brand-600 hover:bg-brand-50 dark:text-brand-400 dark:hover:bg-zinc-800"
                >
                  Settings
                </Link>
              </div>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

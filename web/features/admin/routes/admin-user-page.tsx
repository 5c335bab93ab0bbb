import { Link } from "@tanstack/react-router";
import { useRef, useState, type ReactNode } from "react";
import { Alert } from "../../../components/ui/alert";
import { Avatar } from "../../../components/ui/avatar";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { ConfirmDialog } from "../../../components/ui/dialog";
import { Card, CardHeader } from "../../../components/ui/card";
import { EmptyState } from "../../../components/ui/page";
import { LoadingBlock } from "../../../components/ui/spinner";
import { ApiError, errorMessage } from "../../../lib/api-error";
import { formatDateTime } from "../../../lib/format";
import { useAppMeta } from "../../../lib/meta";
import { useAdminUser, useUnbanUser, type AdminUserDetail } from "../api/admin";
import { AuditEntriesCard } from "../components/audit-entries-card";
import { BanUserDialog } from "../components/ban-user-dialog";
import { DeleteUserDialog } from "../components/delete-user-dialog";
import { ImpersonateDialog } from "../components/impersonate-dialog";
import { ResetSecondFactorsDialog } from "../components/reset-second-factors-dialog";
import { SetPasswordDialog } from "../components/set-password-dialog";
import { platformRoleOf, SetRoleDialog } from "../components/set-role-dialog";
import { banEndText, PlatformRoleBadge, UserStatusBadges } from "../components/user-badges";
import { UserSessionsCard } from "../components/user-sessions-card";

type User = AdminUserDetail["user"];
type Action = "role" | "password" | "ban" | "unban" | "impersonate" | "secondFactors" | "delete";

const linkClass = "font-medium text-brand-600 hover:underline dark:text-brand-400";

function BackToUsers() {
  return (
    <Link to="/admin" className={`${linkClass} mb-4 inline-block text-sm`}>
      <span aria-hidden="true">← </span>All users
    </Link>
  );
}

/** A term and its value in a card's description list; at 375 px they stack. */
function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="py-2.5 sm:grid sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm text-zinc-500 dark:text-zinc-400">{term}</dt>
      <dd className="mt-0.5 min-w-0 text-sm sm:col-span-2 sm:mt-0">{children}</dd>
    </div>
  );
}

function ProfileCard({ user }: { user: User }) {
  return (
    <Card>
      <CardHeader title="Profile" />
      <dl className="-my-2.5 divide-y divide-zinc-200 dark:divide-zinc-800">
        <Detail term="Name">{user.name}</Detail>
        <Detail term="E-mail">
          <span className="mr-2 break-all">{user.email}</span>
          {user.emailVerified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Not verified</Badge>}
        </Detail>
        <Detail term="Username">
          {user.displayUsername || user.username ? `@${user.displayUsername || user.username}` : "—"}
        </Detail>
        <Detail term="Platform role">
          <PlatformRoleBadge user={user} />
        </Detail>
        <Detail term="Status">
          <UserStatusBadges user={user} />
        </Detail>
        <Detail term="Signed up">{formatDateTime(user.createdAt)}</Detail>
        <Detail term="Last updated">{formatDateTime(user.updatedAt)}</Detail>
        <Detail term="User ID">
          <span className="font-mono text-xs break-all">{user.id}</span>
        </Detail>
      </dl>
    </Card>
  );
}

/** One action of the card: what it does, and its button. */
function ActionRow({ title, description, children }: { title: string; description: ReactNode; children: ReactNode }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
      <div className="min-w-0 flex-1 basis-48">
        <p className="text-sm font-medium">{title}</p>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{description}</p>
      </div>
      {children}
    </li>
  );
}

/** "An authenticator app and 2 passkeys". */
function secondFactorWords({ totp, passkeys }: AdminUserDetail["secondFactors"]): string {
  const words = [
    ...(totp ? ["An authenticator app"] : []),
    ...(passkeys > 0 ? [`${passkeys} passkey${passkeys === 1 ? "" : "s"}`] : []),
  ];
  return words.join(" and ");
}

/**
 * What a platform admin may do to this user. Their own account offers nothing here: the server refuses a change of
 * one's own role, and a ban, a deletion or an impersonation of oneself makes no sense.
 */
function ActionsCard({
  user,
  isSelf,
  secondFactors,
}: {
  user: User;
  isSelf: boolean;
  secondFactors: AdminUserDetail["secondFactors"];
}) {
  const hasSecondFactor = secondFactors.totp || secondFactors.passkeys > 0;
  const [action, setAction] = useState<Action | null>(null);
  const unban = useUnbanUser(user);
  // Where focus goes when an action replaced the button that opened it (Ban becomes Unban and back).
  const titleRef = useRef<HTMLHeadingElement>(null);
  const dialog = (name: Action) => ({
    open: action === name,
    onOpenChange: (open: boolean) => setAction(open ? name : null),
  });

  return (
    <Card>
      <CardHeader title="Actions" titleRef={titleRef} />
      {user.banned ? (
        <div className="mb-4">
          <Alert tone="error" title={`Banned ${banEndText(user.banExpires)}`}>
            {user.banReason ? `Reason: ${user.banReason}` : "No reason was given."}
          </Alert>
        </div>
      ) : null}
      {isSelf ? (
        <Alert tone="info" title="This is your account">
          Your role, a ban and deletion are not available for yourself. Change your profile, password and sessions in{" "}
          <Link to="/account" className={linkClass}>
            Account settings
          </Link>
          .
        </Alert>
      ) : (
        <ul className="-my-3 divide-y divide-zinc-200 dark:divide-zinc-800">
          <ActionRow
            title="Platform role"
            description={
              platformRoleOf(user.role) === "admin"
                ? "A platform admin, with access to this console."
                : "A regular user."
            }
          >
            <Button variant="secondary" size="sm" onClick={() => setAction("role")}>
              Change role
            </Button>
          </ActionRow>
          <ActionRow title="Password" description="Give them a new password to sign in with.">
            <Button variant="secondary" size="sm" onClick={() => setAction("password")}>
              Set password
            </Button>
          </ActionRow>
          {user.banned ? (
            <ActionRow title="Lift the ban" description="Let them sign in again now.">
              <Button variant="secondary" size="sm" onClick={() => setAction("unban")}>
                Unban
              </Button>
            </ActionRow>
          ) : (
            <ActionRow title="Ban" description="End their sessions and refuse their sign-ins, for a while or for good.">
              <Button variant="danger" size="sm" onClick={() => setAction("ban")}>
                Ban
              </Button>
            </ActionRow>
          )}
          <ActionRow
            title="Impersonate"
            description={
              user.isPlatformAdmin
                ? "Platform admins cannot be impersonated."
                : "See Atrium as they see it, for up to an hour."
            }
          >
            {user.isPlatformAdmin ? null : (
              <Button variant="secondary" size="sm" onClick={() => setAction("impersonate")}>
                Impersonate
              </Button>
            )}
          </ActionRow>
          {hasSecondFactor ? (
            <ActionRow
              title="Second factors"
              description={`${secondFactorWords(secondFactors)}. Reset them when they lost access to all of them.`}
            >
              <Button variant="danger" size="sm" onClick={() => setAction("secondFactors")}>
                Reset second factors
              </Button>
            </ActionRow>
          ) : null}
          <ActionRow title="Delete" description="Delete the account and everything tied to it.">
            <Button variant="danger" size="sm" onClick={() => setAction("delete")}>
              Delete user
            </Button>
          </ActionRow>
        </ul>
      )}
      {isSelf ? null : (
        <>
          <SetRoleDialog user={user} {...dialog("role")} fallbackFocus={titleRef} />
          <SetPasswordDialog user={user} {...dialog("password")} />
          <BanUserDialog user={user} {...dialog("ban")} fallbackFocus={titleRef} />
          <ConfirmDialog
            {...dialog("unban")}
            title={`Unban ${user.name}?`}
            description={`${user.name} can sign in again right away.`}
            confirmLabel="Unban"
            isDanger={false}
            onConfirm={() => unban.mutateAsync()}
            fallbackFocus={titleRef}
          />
          {user.isPlatformAdmin ? null : <ImpersonateDialog user={user} {...dialog("impersonate")} />}
          <ResetSecondFactorsDialog user={user} {...dialog("secondFactors")} fallbackFocus={titleRef} />
          <DeleteUserDialog user={user} {...dialog("delete")} />
        </>
      )}
    </Card>
  );
}

function SignInMethodsCard({ methods }: { methods: AdminUserDetail["signInMethods"] }) {
  const providers = useAppMeta().data?.socialProviders ?? [];
  const nameOf = (providerId: string) =>
    providerId === "credential"
      ? "Password"
      : (providers.find((provider) => provider.id === providerId)?.name ?? providerId);
  return (
    <Card>
      <CardHeader title="Sign-in methods" />
      {methods.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          None yet: they have not set a password or connected a provider.
        </p>
      ) : (
        <ul className="-my-2.5 divide-y divide-zinc-200 dark:divide-zinc-800">
          {methods.map((method) => (
            <li key={`${method.providerId}-${method.createdAt}`} className="py-2.5 text-sm">
              <p className="font-medium">{nameOf(method.providerId)}</p>
              <p className="text-zinc-500 dark:text-zinc-400">
                {method.email ? <span className="break-all">{`${method.email} · `}</span> : null}
                {`${method.providerId === "credential" ? "Set" : "Connected"} ${formatDateTime(method.createdAt)}`}
              </p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function OrganizationsCard({ organizations }: { organizations: AdminUserDetail["organizations"] }) {
  return (
    <Card>
      <CardHeader title="Organizations" />
      {organizations.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">Not a member of any organization.</p>
      ) : (
        <ul className="-my-2.5 divide-y divide-zinc-200 dark:divide-zinc-800">
          {organizations.map((organization) => (
            <li
              key={organization.id}
              className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2.5 text-sm"
            >
              <div className="min-w-0">
                <Link
                  to="/admin/organizations/$organizationId"
                  params={{ organizationId: organization.id }}
                  className={linkClass}
                >
                  {organization.name}
                </Link>
                <p className="text-zinc-500 dark:text-zinc-400">Joined {formatDateTime(organization.joinedAt)}</p>
              </div>
              <span className="inline-flex flex-wrap gap-1">
                {organization.role.split(",").map((role) => (
                  <Badge key={role} tone={role === "owner" ? "brand" : "neutral"}>
                    {role}
                  </Badge>
                ))}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/**
 * One user, for a platform admin: profile, sign-in methods, organizations, sessions, what the audit log recorded
 * about them, and the admin actions. `currentUserId`/`currentSessionId` are the signed-in admin's, so the page
 * can leave out actions on their own account and mark the session they are using.
 */
export function AdminUserPage({
  userId,
  currentUserId,
  currentSessionId,
}: {
  userId: string;
  currentUserId: string;
  currentSessionId: string;
}) {
  const detail = useAdminUser(userId);

  if (detail.isPending) return <LoadingBlock label="Loading user…" />;
  if (detail.isError) {
    return (
      <>
        <BackToUsers />
        {detail.error instanceof ApiError && detail.error.status === 404 ? (
          <EmptyState title="There is no such user">They may have been deleted.</EmptyState>
        ) : (
          <Alert tone="error" title="This user could not load">
            <p>{errorMessage(detail.error)}</p>
            <Button
              variant="secondary"
              size="sm"
              className="mt-3"
              isLoading={detail.isFetching}
              onClick={() => void detail.refetch()}
            >
              Try again
            </Button>
          </Alert>
        )}
      </>
    );
  }

  const { user, signInMethods, organizations, secondFactors } = detail.data;
  const isSelf = user.id === currentUserId;
  const username = user.displayUsername || user.username;
  return (
    <>
      <BackToUsers />
      <div className="mb-8 flex flex-wrap items-center gap-4">
        <Avatar name={user.name} image={user.image} size="lg" />
        <div className="min-w-0 flex-1">
          <h1 className="text-2xl font-semibold tracking-tight">
            {user.name}{" "}
            {isSelf ? <span className="text-base font-normal text-zinc-500 dark:text-zinc-400">(you)</span> : null}
          </h1>
          <p className="mt-1 text-sm break-all text-zinc-500 dark:text-zinc-400">
            {user.email}
            {username ? ` · @${username}` : ""}
          </p>
          <div className="mt-2 flex flex-wrap gap-1">
            <PlatformRoleBadge user={user} />
            <UserStatusBadges user={user} />
          </div>
        </div>
      </div>
      <div className="space-y-6">
        <div className="grid gap-6 lg:grid-cols-2">
          <ProfileCard user={user} />
          <ActionsCard user={user} isSelf={isSelf} secondFactors={secondFactors} />
        </div>
        <div className="grid gap-6 lg:grid-cols-2">
          <SignInMethodsCard methods={signInMethods} />
          <OrganizationsCard organizations={organizations} />
        </div>
        <UserSessionsCard user={user} isSelf={isSelf} currentSessionId={currentSessionId} />
        <AuditEntriesCard filter={{ targetId: userId }} />
      </div>
    </>
  );
}

import { Link, useNavigate } from "@tanstack/react-router";
import type { InvitationState } from "../../../../common/organization.schemas";
import { AuthLayout } from "../../../components/auth-layout";
import { SocialSignIn } from "../../../components/social-sign-in";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { LoadingBlock } from "../../../components/ui/spinner";
import { ApiError, errorMessage } from "../../../lib/api-error";
import { formatDateTime } from "../../../lib/format";
import { useSession } from "../../../lib/session";
import {
  useAcceptInvitation,
  useInvitationDetails,
  useInvitationPreview,
  useRejectInvitation,
  useSignOutHere,
} from "../api/organizations";
import { roleLabel } from "../components/organization-context";

const STATE_MESSAGES: Record<
  Exclude<InvitationState, "pending">,
  { title: string; message: (organizationName: string) => string }
> = {
  expired: {
    title: "This invitation has expired",
    message: (name) => `Invitations work for 2 days. Ask the person who invited you to ${name} to send a new one.`,
  },
  canceled: {
    title: "This invitation was canceled",
    message: (name) =>
      `An owner or admin of ${name} canceled it. Ask them for a new invitation if you still need access.`,
  },
  accepted: {
    title: "This invitation was already used",
    message: (name) => `It has been accepted. If that was you, ${name} is in your organization switcher.`,
  },
  organization_deleted: {
    title: "This organization no longer exists",
    message: (name) => `${name || "The organization"} was deleted, so its invitations no longer work.`,
  },
  rejected: {
    title: "This invitation was declined",
    message: (name) => `It can no longer be used to join ${name}. Ask for a new invitation if you changed your mind.`,
  },
};

const linkButton = "inline-flex w-full items-center justify-center rounded-lg px-4 py-2 text-sm font-medium";
const homeLink = "mt-6 inline-block text-sm font-medium text-brand-600 hover:underline dark:text-brand-400";

function GoHome() {
  return (
    <Link to="/" className={homeLink}>
      Go home
    </Link>
  );
}

/** The page an invitation link opens: works signed in, signed out with an account, and for new people. */
export function InvitationPage({ invitationId, email }: { invitationId: string; email?: string }) {
  const session = useSession();
  const navigate = useNavigate();
  // Errors are shown on the page; a success toast welcomes the person and home shows the organization.
  const accept = useAcceptInvitation({ welcome: (name) => `Welcome to ${name}`, errorToast: false });
  const reject = useRejectInvitation({ errorToast: false });
  const signOut = useSignOutHere();
  const user = session.data?.user;
  const preview = useInvitationPreview(invitationId);
  const invitation = useInvitationDetails(invitationId, Boolean(user) && preview.data?.state === "pending");
  const here = `/invitations/${invitationId}${email ? `?email=${encodeURIComponent(email)}` : ""}`;

  if (session.isPending || preview.isPending) return <LoadingBlock label="Loading invitation…" />;
  if (preview.isError) {
    const isUnknown = preview.error instanceof ApiError && preview.error.status === 404;
    return (
      <AuthLayout title={isUnknown ? "Invitation not found" : "This invitation could not load"}>
        <Alert tone="error">
          {isUnknown
            ? "This link does not match any invitation. Check that you copied it whole."
            : errorMessage(preview.error)}
        </Alert>
        <GoHome />
      </AuthLayout>
    );
  }
  const { state, organizationName, inviterName } = preview.data;
  if (state !== "pending") {
    const { title, message } = STATE_MESSAGES[state];
    return (
      <AuthLayout title={title}>
        <Alert tone="info">{message(organizationName)}</Alert>
        <GoHome />
      </AuthLayout>
    );
  }

  if (!user) {
    return (
      <AuthLayout
        title={
          inviterName
            ? `${inviterName} invited you to join ${organizationName}`
            : `You are invited to join ${organizationName}`
        }
        description={
          <>
            Sign in or create an account
            {email ? (
              <>
                {" "}
                with <strong>{email}</strong>
              </>
            ) : null}{" "}
            to accept the invitation.
          </>
        }
      >
        {/* A provider brings the person back here, signed in, to accept. */}
        <SocialSignIn callbackURL={here} />
        <div className="space-y-3">
          <Link
            to="/sign-in"
            search={{ redirect: here }}
            className={`${linkButton} bg-brand-600 text-white hover:bg-brand-700`}
          >
            Sign in to continue
          </Link>
          <Link
            to="/sign-up"
            search={{ redirect: here, email }}
            className={`${linkButton} border border-zinc-300 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800`}
          >
            Create an account
          </Link>
        </div>
      </AuthLayout>
    );
  }

  if (invitation.isPending) return <LoadingBlock label="Loading invitation…" />;
  if (invitation.isError) {
    // Signed in with another address than the invited one: signing out (and in again) is the way on.
    if (
      invitation.error instanceof ApiError &&
      invitation.error.code === "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION"
    ) {
      return (
        <AuthLayout title="This invitation is for someone else">
          <p className="text-sm text-zinc-600 dark:text-zinc-300">
            {inviterName
              ? `${inviterName} invited another e-mail address to join ${organizationName}.`
              : `${organizationName} invited another e-mail address.`}{" "}
            You are signed in as <strong>{user.email}</strong>. Sign out, then sign in or create an account with the
            invited address; this page opens again.
          </p>
          <div className="mt-6 space-y-3">
            {signOut.error ? <Alert tone="error">{errorMessage(signOut.error)}</Alert> : null}
            <Button className="w-full" isLoading={signOut.isPending} onClick={() => signOut.mutate()}>
              Sign out
            </Button>
          </div>
          <GoHome />
        </AuthLayout>
      );
    }
    return (
      <AuthLayout title="This invitation cannot be used">
        <Alert tone="error">{errorMessage(invitation.error)}</Alert>
        <GoHome />
      </AuthLayout>
    );
  }

  const details = invitation.data;
  const goHome = { onSuccess: () => navigate({ to: "/" }) };
  const isWorking = accept.isPending || reject.isPending;
  const actionError = accept.error ?? reject.error;
  // An API key's invitation has no inviter: the organization invites.
  const inviter = inviterName ? `${inviterName} (${details.inviterEmail})` : details.organizationName;
  return (
    <AuthLayout
      title={`Join ${details.organizationName}`}
      description={
        <>
          {inviter} invited <strong>{details.email}</strong> to join as <strong>{roleLabel(details.role)}</strong>. The
          invitation expires {formatDateTime(details.expiresAt)}.
        </>
      }
    >
      <div className="space-y-3">
        {actionError ? <Alert tone="error">{errorMessage(actionError)}</Alert> : null}
        <Button
          className="w-full"
          onClick={() => {
            reject.reset();
            accept.mutate(
              { invitationId, organizationId: details.organizationId, organizationName: details.organizationName },
              goHome,
            );
          }}
          isLoading={accept.isPending}
          disabled={isWorking}
        >
          Accept invitation
        </Button>
        <Button
          variant="secondary"
          className="w-full"
          onClick={() => {
            accept.reset();
            reject.mutate({ invitationId }, goHome);
          }}
          isLoading={reject.isPending}
          disabled={isWorking}
        >
          Decline
        </Button>
      </div>
    </AuthLayout>
  );
}

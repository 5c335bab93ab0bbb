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
import { useAcceptInvitation, useInvitationDetails, useInvitationState, useRejectInvitation } from "../api/organizations";

const STATE_MESSAGES: Record<Exclude<InvitationState, "pending">, { title: string; message: string }> = {
  expired: { title: "This invitation has expired", message: "Invitations work for 2 days. Ask the person who invited you to send a new one." },
  canceled: { title: "This invitation was canceled", message: "An owner or admin canceled it. Ask them for a new invitation if you still need access." },
  accepted: { title: "This invitation was already used", message: "It has been accepted. If that was you, the organization is in your organization switcher." },
  rejected: { title: "This invitation was declined", message: "It can no longer be used. Ask for a new invitation if you changed your mind." },
};

const linkButton = "inline-flex w-full items-center justify-center rounded-lg px-4 py-2 text-sm font-medium";

/** What went wrong with an invitation, in words the invited person can act on. */
export function explainInvitationError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === "YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION")
      return "This invitation was sent to another e-mail address. Sign out, then sign in with the invited address.";
    if (error.code === "INVITATION_NOT_FOUND")
      return "This invitation is no longer valid: it has expired, was canceled, or was already used. Ask for a new one.";
    if (error.code === "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION")
      return "Verify your e-mail address first, then come back to this page.";
  }
  return errorMessage(error);
}

/** The page an invitation link opens: works signed in, signed out with an account, and for new people. */
export function InvitationPage({ invitationId, email }: { invitationId: string; email?: string }) {
  const session = useSession();
  const navigate = useNavigate();
  // Errors are explained on the page; a success toast welcomes the person and home shows the organization.
  const accept = useAcceptInvitation({ welcome: (name) => `Welcome to ${name}`, errorToast: false });
  const reject = useRejectInvitation({ errorToast: false });
  const signedIn = Boolean(session.data?.user);
  const state = useInvitationState(invitationId);
  const invitation = useInvitationDetails(invitationId, signedIn && state.data?.state === "pending");
  const here = `/invitations/${invitationId}${email ? `?email=${encodeURIComponent(email)}` : ""}`;

  if (session.isPending || state.isPending) return <LoadingBlock label="Loading invitation…" />;
  if (state.isError) {
    return (
      <AuthLayout title="Invitation not found">
        <Alert tone="error">
          {state.error instanceof ApiError && state.error.status === 404
            ? "This link does not match any invitation. Check that you copied it whole."
            : errorMessage(state.error)}
        </Alert>
      </AuthLayout>
    );
  }
  if (state.data.state !== "pending") {
    const { title, message } = STATE_MESSAGES[state.data.state];
    return (
      <AuthLayout title={title}>
        <Alert tone="info">{message}</Alert>
        <Link to="/" className="mt-6 inline-block text-sm font-medium text-brand-600 hover:underline dark:text-brand-400">
          Go home
        </Link>
      </AuthLayout>
    );
  }

  if (!signedIn) {
    return (
      <AuthLayout
        title="You have been invited"
        description={
          <>
            Sign in or create an account
            {email ? (
              <>
                {" "}
                with <strong>{email}</strong>
              </>
            ) : null}{" "}
            to see and accept this invitation.
          </>
        }
      >
        {/* A provider brings the person back here, signed in, to accept. */}
        <SocialSignIn callbackURL={here} />
        <div className="space-y-3">
          <Link to="/sign-in" search={{ redirect: here }} className={`${linkButton} bg-brand-600 text-white hover:bg-brand-700`}>
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
    return (
      <AuthLayout title="This invitation cannot be used">
        <Alert tone="error">{explainInvitationError(invitation.error)}</Alert>
        <Link to="/" className="mt-6 inline-block text-sm font-medium text-brand-600 hover:underline dark:text-brand-400">
          Go home
        </Link>
      </AuthLayout>
    );
  }

  const details = invitation.data;
  const goHome = { onSuccess: () => navigate({ to: "/" }) };
  const isWorking = accept.isPending || reject.isPending;
  const actionError = accept.error ?? reject.error;
  return (
    <AuthLayout
      title={`Join ${details.organizationName}`}
      description={
        <>
          {details.inviterEmail} invited <strong>{details.email}</strong> to join as <strong>{details.role}</strong>. The invitation expires{" "}
          {formatDateTime(details.expiresAt)}.
        </>
      }
    >
      <div className="space-y-3">
        {actionError ? <Alert tone="error">{explainInvitationError(actionError)}</Alert> : null}
        <Button
          className="w-full"
          onClick={() => {
            reject.reset();
            accept.mutate({ invitationId, organizationId: details.organizationId, organizationName: details.organizationName }, goHome);
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

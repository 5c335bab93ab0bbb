import { AuthLayout, TextLink } from "../../../components/auth-layout";
import { DevMailboxHint } from "../../../components/dev-mailbox-hint";
import { banExpiryOf } from "../../../../common/ban-message";
import { isSignInErrorCode, type SignInErrorCode } from "../../../../common/sign-in-errors";
import { Alert } from "../../../components/ui/alert";
import { bannedAccountMessage } from "../../../lib/error-sentences";
import { useSession } from "../../../lib/session";

/** `isNextStep`: not a failure but what to do next (shown as information); `hasAccount`: the person has an account already. */
type Explanation = { title: string; message: string; isNextStep?: boolean; hasAccount?: boolean };

const TRY_AGAIN: Explanation = {
  title: "Signing in did not finish",
  message:
    "Something went wrong between Atrium and the sign-in provider. Start again; if it keeps happening, use another way to sign in.",
};

/**
 * What each `?error=` the server sends here means, in words a person can act on: one for every code of the fixed
 * list (common/sign-in-errors.ts; a ban is worded below). Anything else reads as TRY_AGAIN, and the page never shows
 * text taken from the address.
 */
const EXPLANATIONS: Record<Exclude<SignInErrorCode, "banned" | "BANNED_USER">, Explanation> = {
  state_mismatch: {
    title: "This sign-in expired",
    message:
      "Signing in through a provider must be finished within 10 minutes, in the browser where it started. Start again.",
  },
  invalid_code: {
    title: "This sign-in was already used",
    message: "The provider's answer works only once. Start again to sign in.",
  },
  access_denied: {
    title: "Sign-in cancelled",
    message: "You cancelled at the provider, so nothing changed. You can try again or use another way to sign in.",
    isNextStep: true,
  },
  account_not_linked: {
    title: "You already have an account with this e-mail",
    message:
      "To keep it safe, a provider is connected to an existing account only when both have verified the same e-mail address. Sign in with your password (if the address is not verified yet, we send a link to confirm it), then connect the provider in Account settings › Sign-in methods.",
    hasAccount: true,
  },
  email_not_verified: {
    title: "Confirm your e-mail address",
    message:
      "The provider did not confirm your e-mail address, so we sent a link to it. Open the link to finish signing in.",
    isNextStep: true,
    hasAccount: true,
  },
  email_does_not_match: {
    title: "That account uses another e-mail address",
    message: "You can connect only a provider account that uses the same e-mail address as your Atrium account.",
  },
  unable_to_link_account: {
    title: "That account could not be connected",
    message:
      "The provider did not confirm the e-mail address of that account. Confirm it with the provider, then try again.",
  },
  account_already_linked_to_different_user: {
    title: "That provider account is taken",
    message: "It is already connected to another Atrium account. Sign in to that account, or connect a different one.",
  },
  email_not_found: {
    title: "The provider did not share an e-mail address",
    message:
      "Atrium needs one to know who you are. Allow access to your e-mail address at the provider, then try again.",
  },
  // The app's refusals of a sign-in through an organization's single sign-on.
  SSO_SAML_RESPONSE_REFUSED: {
    title: "Your identity provider's answer was refused",
    message:
      "Atrium could not accept the sign-in your identity provider sent: it may have expired, been used already, or " +
      "not match this connection. Start again; if it keeps happening, ask your administrator to check single sign-on.",
  },
  SSO_DOMAIN_NOT_VERIFIED: {
    title: "Single sign-on is not ready yet",
    message:
      "Your organization has not finished setting up single sign-on: its e-mail domain is not verified yet. " +
      "Ask your administrator, or sign in another way for now.",
  },
  SSO_EMAIL_OUTSIDE_DOMAIN: {
    title: "Use your work account",
    message:
      "This organization's single sign-on signs in addresses on its own domain only. " +
      "Sign in at your identity provider with your work account, then try again.",
  },
  PLAN_LIMIT_REACHED: {
    title: "Your organization has no free seat",
    message:
      "Your organization's plan has no room for another member, so you could not join it. " +
      "Ask an owner to add seats, then sign in again.",
  },
};

/**
 * A banned person: the ban's end is the one thing read from `error_description` (the server's `bannedUserMessage`),
 * so the page shows it in the reader's own time and never shows the address's text. better-auth's callback names the
 * refusal by its code, BANNED_USER; `banned` is the same refusal under the name the app's own redirects use.
 */
function bannedExplanation(description: string | undefined): Explanation {
  return { title: "This account is banned", message: bannedAccountMessage(banExpiryOf(description)), hasAccount: true };
}

function explain(error: string | undefined, description: string | undefined): Explanation {
  if (!isSignInErrorCode(error)) return TRY_AGAIN;
  if (error === "banned" || error === "BANNED_USER") return bannedExplanation(description);
  return EXPLANATIONS[error];
}

/**
 * Where a sign-in or a connection through a provider lands when it fails: what happened, and a way on.
 * `errorDescription` is the address's `error_description`, read only for a ban's end.
 */
export function SignInErrorPage({ error, errorDescription }: { error?: string; errorDescription?: string }) {
  const session = useSession();
  const explanation = explain(error, errorDescription);
  const isSignedIn = Boolean(session.data?.user);

  return (
    <AuthLayout
      title={explanation.title}
      footer={
        isSignedIn ? (
          <TextLink to="/">Go home</TextLink>
        ) : explanation.hasAccount ? null : (
          <>
            No account yet? <TextLink to="/sign-up">Create one</TextLink>
          </>
        )
      }
    >
      <div className="space-y-3">
        <Alert tone={explanation.isNextStep ? "info" : "error"}>{explanation.message}</Alert>
        {error === "email_not_verified" ? <DevMailboxHint /> : null}
      </div>
      <div className="mt-6">
        {session.isPending ? null : isSignedIn ? (
          <TextLink to="/account/sign-in-methods">Back to sign-in methods</TextLink>
        ) : (
          <TextLink to="/sign-in">Back to sign-in</TextLink>
        )}
      </div>
    </AuthLayout>
  );
}

import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Alert } from "../../../components/ui/alert";
import { Avatar } from "../../../components/ui/avatar";
import { Card, CardHeader } from "../../../components/ui/card";
import { LoadingBlock } from "../../../components/ui/spinner";
import { linkErrorMessage, noticeMessage, noticeTone } from "../../../lib/address-messages";
import { useSession } from "../../../lib/session";

const linkButton = "inline-flex items-center justify-center rounded-lg px-4 py-2 text-sm font-medium transition-colors";

/**
 * `organizations` is the signed-in home's organization section and `notices` what the active organization needs
 * its owners to know (a failed payment); the route supplies both (features do not import each other). `notice` and
 * `error` are the address's codes (web/lib/address-messages.ts).
 */
export function HomePage({
  notice,
  error,
  organizations,
  notices,
}: {
  notice?: string;
  error?: string;
  organizations?: ReactNode;
  notices?: ReactNode;
}) {
  const session = useSession();
  if (session.isPending) return <LoadingBlock />;
  const user = session.data?.user;

  const errorMessage = linkErrorMessage(error);
  const noticeText = noticeMessage(notice);
  const banner = errorMessage ? (
    <Alert tone="error">{errorMessage}</Alert>
  ) : noticeText ? (
    <Alert tone={noticeTone(notice)}>{noticeText}</Alert>
  ) : null;

  if (!user) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-20 text-center">
        {banner ? <div className="mb-8 text-left">{banner}</div> : null}
        <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-400">Atrium</p>
        <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance sm:text-5xl">
          The foundation for your SaaS
        </h1>
        <p className="mx-auto mt-4 max-w-xl text-lg text-zinc-600 dark:text-zinc-400">
          Accounts, sessions, organizations and billing, ready on day one. Self-hosted, open source, yours to extend.
        </p>
        <div className="mt-8 flex justify-center gap-3">
          <Link to="/sign-up" className={`${linkButton} bg-brand-600 text-white hover:bg-brand-700`}>
            Create an account
          </Link>
          <Link
            to="/sign-in"
            className={`${linkButton} border border-zinc-300 bg-white hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800`}
          >
            Sign in
          </Link>
        </div>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-10">
      {notices ? <div className="empty:hidden">{notices}</div> : null}
      {banner}
      <div className="flex items-center gap-4">
        <Avatar name={user.name} image={user.image} size="lg" />
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Welcome, {user.name}</h1>
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            Signed in as {user.email}
            {user.displayUsername || user.username ? ` · @${user.displayUsername || user.username}` : ""}
          </p>
        </div>
      </div>
      {organizations}
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader
            title="Your account"
            description="Profile, sign-in methods, password, sessions and account deletion."
          />
          <Link to="/account" className="text-sm font-medium text-brand-600 hover:underline dark:text-brand-400">
            Open account settings →
          </Link>
        </Card>
        <Card>
          <CardHeader
            title="Security"
            description="See every device signed in to your account and sign out the ones you do not recognise."
          />
          <Link
            to="/account/sessions"
            className="text-sm font-medium text-brand-600 hover:underline dark:text-brand-400"
          >
            Review sessions →
          </Link>
        </Card>
      </div>
    </div>
  );
}

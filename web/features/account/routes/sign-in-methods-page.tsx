import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { LoadingBlock } from "../../../components/ui/spinner";
import { errorMessage } from "../../../lib/api-error";
import { formatDateTime } from "../../../lib/format";
import { useAppMeta } from "../../../lib/meta";
import { PasskeysCard } from "../components/passkeys-card";
import { SetPasswordByMail } from "../components/set-password-by-mail";
import {
  PASSWORD_PROVIDER,
  useConnectProvider,
  useDisconnectProvider,
  useSignInMethods,
  type SignInMethod,
} from "../api/sign-in-methods";

type ProviderRow = { id: string; name: string; method?: SignInMethod };

/**
 * The password and every sign-in provider: which are set up, with the e-mail each provider vouched for;
 * connect another, disconnect one while another way in remains, or set a first password by mail.
 */
export function SignInMethodsPage({
  email,
  username,
  connected,
}: {
  email: string;
  /** Offered with the password only when the person has one. */
  username?: string | null;
  connected?: string;
}) {
  const methods = useSignInMethods();
  const meta = useAppMeta();
  const connect = useConnectProvider();
  const disconnect = useDisconnectProvider();
  const [confirming, setConfirming] = useState<ProviderRow | null>(null);

  if (methods.isPending || meta.isPending) return <LoadingBlock label="Loading sign-in methods…" />;
  if (methods.isError) return <Alert tone="error">{errorMessage(methods.error)}</Alert>;

  const password = methods.data.find((method) => method.providerId === PASSWORD_PROVIDER);
  const configured = meta.data?.socialProviders ?? [];
  // Providers this deployment offers, then any the account is still connected to that it no longer offers.
  const rows: ProviderRow[] = [
    ...configured.map((provider) => ({
      ...provider,
      method: methods.data.find((method) => method.providerId === provider.id),
    })),
    ...methods.data
      .filter(
        (method) =>
          method.providerId !== PASSWORD_PROVIDER && !configured.some((provider) => provider.id === method.providerId),
      )
      .map((method) => ({ id: method.providerId, name: method.providerId, method })),
  ];
  const isOnlyMethod = methods.data.length <= 1;
  const justConnected = connected ? rows.find((row) => row.id === connected && row.method) : undefined;

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Sign-in methods"
          description="The ways you can sign in to your account. Keep at least one."
        />
        <div className="space-y-4">
          {justConnected ? (
            <Alert tone="success">{justConnected.name} is connected: you can now sign in with it.</Alert>
          ) : null}
          {connect.isError ? <Alert tone="error">{errorMessage(connect.error)}</Alert> : null}
          {disconnect.isError ? <Alert tone="error">{errorMessage(disconnect.error)}</Alert> : null}
          <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
            <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-3 p-4">
              <div className="min-w-0 flex-1 basis-56">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  Password {password ? <Badge tone="success">Set</Badge> : <Badge>Not set</Badge>}
                </p>
                <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                  {password
                    ? `Sign in with ${email}${username ? ` or your username, ${username}` : ""}.`
                    : `Set one to sign in with your e-mail address${username ? " or username" : ""} too.`}
                </p>
              </div>
              {password ? (
                <Link
                  to="/account/password"
                  className="rounded-lg border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
                >
                  Change password
                </Link>
              ) : (
                <div className="basis-full sm:basis-auto">
                  <SetPasswordByMail email={email} />
                </div>
              )}
            </li>
            {rows.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-3 p-4">
                <div className="min-w-0 flex-1 basis-56">
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    {row.name} {row.method ? <Badge tone="success">Connected</Badge> : <Badge>Not connected</Badge>}
                  </p>
                  <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                    {row.method
                      ? `${row.method.email ? `As ${row.method.email}, since` : "Since"} ${formatDateTime(row.method.createdAt)}.`
                      : `Sign in with your ${row.name} account.`}
                    {row.method && isOnlyMethod ? (
                      <span id={`${row.id}-only`}> It is your only way to sign in.</span>
                    ) : null}
                  </p>
                </div>
                {row.method ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={isOnlyMethod}
                    focusableWhenDisabled
                    aria-describedby={isOnlyMethod ? `${row.id}-only` : undefined}
                    aria-label={`Disconnect ${row.name}`}
                    onClick={() => setConfirming(row)}
                  >
                    Disconnect
                  </Button>
                ) : (
                  <Button
                    variant="secondary"
                    size="sm"
                    aria-label={`Connect ${row.name}`}
                    // After success the browser is on its way to the provider: the button stays busy until the page goes.
                    isLoading={(connect.isPending || connect.isSuccess) && connect.variables.provider === row.id}
                    disabled={connect.isPending || connect.isSuccess}
                    onClick={() => connect.mutate({ provider: row.id })}
                  >
                    Connect
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </div>
        <Dialog
          open={confirming !== null}
          onOpenChange={(open) => (open ? null : setConfirming(null))}
          title={`Disconnect ${confirming?.name ?? ""}?`}
          description={`You will no longer be able to sign in with ${confirming?.name ?? ""}${confirming?.method?.email ? ` as ${confirming.method.email}` : ""}. You can connect it again later.`}
        >
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              isLoading={disconnect.isPending}
              onClick={() => {
                if (!confirming?.method) return;
                disconnect.mutate(
                  { accountId: confirming.method.id, name: confirming.name },
                  { onSettled: () => setConfirming(null) },
                );
              }}
            >
              Disconnect
            </Button>
          </div>
        </Dialog>
      </Card>
      <PasskeysCard />
    </div>
  );
}

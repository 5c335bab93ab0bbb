import { useMutation } from "@tanstack/react-query";
import { Alert } from "./ui/alert";
import { Button } from "./ui/button";
import { errorMessage, unwrap } from "../lib/api-error";
import { authClient } from "../lib/auth-client";
import { useAppMeta } from "../lib/meta";

/**
 * "Continue with …": better-auth answers with the provider's URL and the client navigates there. A failure at
 * the provider or at the callback ends on /auth/error (the server's default), which says why.
 */
function useSocialSignIn() {
  return useMutation({
    mutationFn: async ({ provider, callbackURL }: { provider: string; callbackURL: string }) =>
      unwrap(await authClient.signIn.social({ provider, callbackURL })),
    meta: { errorToast: false },
  });
}

/**
 * A button for each sign-in provider the deployment has (the sign-in, sign-up and invitation pages share it),
 * then "or" before the page's own form; nothing at all when there is none. `callbackURL` is where a successful
 * sign-in lands.
 */
export function SocialSignIn({ callbackURL }: { callbackURL: string }) {
  const meta = useAppMeta();
  const socialSignIn = useSocialSignIn();
  const providers = meta.data?.socialProviders ?? [];
  if (providers.length === 0) return null;
  // After success the browser is on its way to the provider: the buttons stay busy until the page goes.
  const pending = socialSignIn.isPending || socialSignIn.isSuccess ? socialSignIn.variables.provider : null;

  return (
    <div className="mb-5 space-y-3">
      {socialSignIn.isError ? <Alert tone="error">{errorMessage(socialSignIn.error)}</Alert> : null}
      {providers.map((provider) => (
        <Button
          key={provider.id}
          variant="secondary"
          className="w-full"
          isLoading={pending === provider.id}
          disabled={pending !== null}
          onClick={() => socialSignIn.mutate({ provider: provider.id, callbackURL })}
        >
          Continue with {provider.name}
        </Button>
      ))}
      <div className="flex items-center gap-3 text-xs text-zinc-500 dark:text-zinc-400" aria-hidden="true">
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
        or
        <span className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />
      </div>
    </div>
  );
}

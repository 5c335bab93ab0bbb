import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { errorMessage } from "../../../lib/api-error";
import { useAppMeta } from "../../../lib/meta";
import { useSocialSignIn } from "../api/auth";

const LABELS = { github: "GitHub", google: "Google" } as const;

/** "Continue with …" for each configured provider; nothing at all when none is configured. */
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
          key={provider}
          variant="secondary"
          className="w-full"
          isLoading={pending === provider}
          disabled={pending !== null}
          onClick={() => socialSignIn.mutate({ provider, callbackURL })}
        >
          Continue with {LABELS[provider]}
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

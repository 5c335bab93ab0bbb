import { useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { errorMessage, unwrap } from "../../../lib/api-error";
import { authClient } from "../../../lib/auth-client";
import { useAppMeta } from "../api/meta";

const LABELS = { github: "GitHub", google: "Google" } as const;

/** "Continue with …" for each configured provider; nothing at all when none is configured. */
export function SocialSignIn({ callbackURL }: { callbackURL: string }) {
  const meta = useAppMeta();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const providers = meta.data?.socialProviders ?? [];
  if (providers.length === 0) return null;

  async function continueWith(provider: keyof typeof LABELS) {
    setPending(provider);
    setError(null);
    try {
      // better-auth answers with the provider's URL and the client navigates there.
      unwrap(await authClient.signIn.social({ provider, callbackURL, errorCallbackURL: "/sign-in" }));
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(null);
    }
  }

  return (
    <div className="mb-5 space-y-3">
      {error ? <Alert tone="error">{error}</Alert> : null}
      {providers.map((provider) => (
        <Button
          key={provider}
          variant="secondary"
          className="w-full"
          isLoading={pending === provider}
          disabled={pending !== null}
          onClick={() => continueWith(provider)}
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

import { useEffect, useState } from "react";
import { usernameSchema } from "../../../../common/account.schemas";
import { authClient } from "../../../lib/auth-client";
import { Spinner } from "../../../components/ui/spinner";

type State = "idle" | "checking" | "available" | "taken" | "error";

/**
 * Checks a username with the server as the person types (debounced). `current` is the person's own
 * username, which is never reported as taken.
 */
export function useUsernameAvailability(username: string, current?: string | null): State {
  const [state, setState] = useState<State>("idle");
  useEffect(() => {
    const value = username.trim();
    if (!value || !usernameSchema.safeParse(value).success || value.toLowerCase() === current?.toLowerCase()) {
      setState("idle");
      return;
    }
    setState("checking");
    let cancelled = false;
    const timer = setTimeout(async () => {
      const { data, error } = await authClient.isUsernameAvailable({ username: value });
      if (cancelled) return;
      setState(error ? "error" : data?.available ? "available" : "taken");
    }, 350);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [username, current]);
  return state;
}

export function UsernameAvailability({ state }: { state: State }) {
  if (state === "checking") return <Spinner label="Checking availability…" className="size-3" />;
  if (state === "available") return <span className="font-medium text-emerald-600 dark:text-emerald-400">✓ This username is available</span>;
  if (state === "taken") return <span className="font-medium text-red-600 dark:text-red-400">This username is already taken</span>;
  if (state === "error") return <span>Could not check availability right now.</span>;
  return <span>3 to 30 letters, digits, dots or underscores.</span>;
}

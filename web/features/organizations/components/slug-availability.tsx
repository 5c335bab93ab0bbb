import { useEffect, useState } from "react";
import { slugSchema } from "../../../../common/organization.schemas";
import { Spinner } from "../../../components/ui/spinner";
import { authClient } from "../../../lib/auth-client";

type State = "idle" | "checking" | "available" | "taken" | "error";

/** Asks the server whether a slug is free as the person types (debounced); `current` is never "taken". */
export function useSlugAvailability(slug: string, current?: string): State {
  const [state, setState] = useState<State>("idle");
  useEffect(() => {
    const value = slug.trim();
    if (!slugSchema.safeParse(value).success || value === current) {
      setState("idle");
      return;
    }
    setState("checking");
    let cancelled = false;
    const timer = setTimeout(async () => {
      const { data, error } = await authClient.organization.checkSlug({ slug: value });
      if (cancelled) return;
      setState(data?.status ? "available" : error?.status === 400 ? "taken" : "error");
    }, 350);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [slug, current]);
  return state;
}

export function SlugAvailability({ state }: { state: State }) {
  if (state === "checking") return <Spinner label="Checking availability…" className="size-3" />;
  if (state === "available") return <span className="font-medium text-emerald-600 dark:text-emerald-400">✓ This slug is available</span>;
  if (state === "taken") return <span className="font-medium text-red-600 dark:text-red-400">slug is taken</span>;
  if (state === "error") return <span>Could not check availability right now.</span>;
  return <span>A short unique name: lower-case letters, digits and dashes.</span>;
}

import { slugSchema } from "../../../../common/organization.schemas";
import { Spinner } from "../../../components/ui/spinner";
import { ERROR_SENTENCES } from "../../../lib/error-sentences";
import { useAvailabilityCheck, type AvailabilityState } from "../../../lib/use-availability-check";
import { isSlugAvailable } from "../api/organizations";

/** What a taken slug reads as, live and on submit: the sentence for the server's ORGANIZATION_SLUG_ALREADY_TAKEN. */
export const SLUG_TAKEN_MESSAGE = ERROR_SENTENCES.ORGANIZATION_SLUG_ALREADY_TAKEN!;

/** Checks a slug as the person types; `current` is the organization's own slug, never reported as taken. */
export function useSlugAvailability(slug: string, current?: string): AvailabilityState {
  const value = slug.trim();
  const shouldCheck = slugSchema.safeParse(value).success && value !== current;
  return useAvailabilityCheck(value, shouldCheck, isSlugAvailable);
}

export function SlugAvailability({ state }: { state: AvailabilityState }) {
  if (state === "checking") return <Spinner label="Checking availability…" className="size-3" />;
  if (state === "available")
    return <span className="font-medium text-emerald-700 dark:text-emerald-400">✓ This slug is available</span>;
  if (state === "taken")
    return <span className="font-medium text-red-600 dark:text-red-400">{SLUG_TAKEN_MESSAGE}</span>;
  if (state === "error") return <span>Could not check availability right now.</span>;
  return <span>A short unique name: lower-case letters, digits and dashes.</span>;
}

import type { AvailabilityState } from "../lib/use-availability-check";
import { Spinner } from "./ui/spinner";

/** The hint under a username field: what `useUsernameAvailability` (web/lib/use-username-availability.ts) found. */
export function UsernameAvailability({ state }: { state: AvailabilityState }) {
  if (state === "checking") return <Spinner label="Checking availability…" className="size-3" />;
  if (state === "available")
    return <span className="font-medium text-emerald-700 dark:text-emerald-400">✓ This username is available</span>;
  if (state === "taken")
    return <span className="font-medium text-red-600 dark:text-red-400">This username is already taken</span>;
  if (state === "error") return <span>Could not check availability right now.</span>;
  return <span>3 to 30 letters, digits, dots or underscores.</span>;
}

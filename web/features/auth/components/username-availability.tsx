import { usernameSchema } from "../../../../common/account.schemas";
import { authClient } from "../../../lib/auth-client";
import { useAvailabilityCheck, type AvailabilityState } from "../../../lib/use-availability-check";
import { Spinner } from "../../../components/ui/spinner";

/** Checks a username as the person types; `current` is their own username, never reported as taken. */
export function useUsernameAvailability(username: string, current?: string | null): AvailabilityState {
  const value = username.trim();
  const shouldCheck = usernameSchema.safeParse(value).success && value.toLowerCase() !== current?.toLowerCase();
  return useAvailabilityCheck(value, shouldCheck, async (candidate) => {
    const { data, error } = await authClient.isUsernameAvailable({ username: candidate });
    if (error) throw new Error(error.message);
    return data?.available === true;
  });
}

export function UsernameAvailability({ state }: { state: AvailabilityState }) {
  if (state === "checking") return <Spinner label="Checking availability…" className="size-3" />;
  if (state === "available") return <span className="font-medium text-emerald-600 dark:text-emerald-400">✓ This username is available</span>;
  if (state === "taken") return <span className="font-medium text-red-600 dark:text-red-400">This username is already taken</span>;
  if (state === "error") return <span>Could not check availability right now.</span>;
  return <span>3 to 30 letters, digits, dots or underscores.</span>;
}

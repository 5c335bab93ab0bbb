import { usernameSchema } from "../../common/account.schemas";
import { authClient } from "./auth-client";
import { useAvailabilityCheck, type AvailabilityState } from "./use-availability-check";

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

import { useEffect, useRef, useState } from "react";

export type AvailabilityState = "idle" | "checking" | "available" | "taken" | "error";

/**
 * Asks the server whether a name is free as the person types, 350 ms after they stop. `shouldCheck`
 * says whether the value is worth asking about (well formed, and not the person's own current name).
 */
export function useAvailabilityCheck(
  value: string,
  shouldCheck: boolean,
  isAvailable: (value: string) => Promise<boolean>,
): AvailabilityState {
  const [state, setState] = useState<AvailabilityState>("idle");
  const ask = useRef(isAvailable);
  ask.current = isAvailable;
  useEffect(() => {
    if (!shouldCheck) {
      setState("idle");
      return;
    }
    setState("checking");
    let isCancelled = false;
    const timer = setTimeout(() => {
      ask
        .current(value)
        .then((available) => !isCancelled && setState(available ? "available" : "taken"))
        .catch(() => !isCancelled && setState("error"));
    }, 350);
    return () => {
      isCancelled = true;
      clearTimeout(timer);
    };
  }, [value, shouldCheck]);
  return state;
}

import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import type { ReauthenticationMethods } from "../../common/error-codes";
import { ApiError } from "./api-error";

/** Runs a sensitive action; on 403 FRESH_AUTHENTICATION_REQUIRED it asks for the re-check, then retries it once. */
export type RequireFresh = <T>(action: () => Promise<T>) => Promise<T>;

const FRESH_AUTHENTICATION_REQUIRED = "FRESH_AUTHENTICATION_REQUIRED";

/** The ways to re-check that a FRESH_AUTHENTICATION_REQUIRED refusal lists, or undefined for any other error. */
export function reauthenticationMethodsOf(error: unknown): ReauthenticationMethods | undefined {
  if (!(error instanceof ApiError) || error.code !== FRESH_AUTHENTICATION_REQUIRED) return undefined;
  const details = (error.details ?? {}) as Partial<ReauthenticationMethods>;
  return {
    password: details.password === true,
    totp: details.totp === true,
    passkey: details.passkey === true,
    providers: Array.isArray(details.providers)
      ? details.providers.filter((id: unknown) => typeof id === "string")
      : [],
  };
}

// Loaded when a re-check is first asked for: most visits never need it.
const ReauthenticateDialog = lazy(() =>
  import("../components/reauthenticate-dialog").then((module) => ({ default: module.ReauthenticateDialog })),
);

const FreshAuthenticationContext = createContext<RequireFresh>((action) => action());

type Pending = { methods: ReauthenticationMethods; settle: (isRechecked: boolean) => void };

/**
 * The one re-check dialog of the app, for every sensitive action (deleting the account or an organization, changing
 * the e-mail, the password or the plan): a mutation wraps its call in `useRequireFresh()`, and when the server
 * answers that the session is not fresh the dialog asks for the password, an authenticator code or a passkey, then the
 * call is made again, once. Cancelling leaves the refusal to the screen, which words it.
 */
export function FreshAuthenticationProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  const ask = useCallback(
    (methods: ReauthenticationMethods) =>
      new Promise<boolean>((resolve) => {
        pendingRef.current?.settle(false);
        const next: Pending = {
          methods,
          settle: (isRechecked) => {
            if (pendingRef.current === next) pendingRef.current = null;
            setPending((current) => (current === next ? null : current));
            resolve(isRechecked);
          },
        };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );
  const requireFresh = useCallback<RequireFresh>(
    async (action) => {
      try {
        return await action();
      } catch (error) {
        const methods = reauthenticationMethodsOf(error);
        if (!methods || !(await ask(methods))) throw error;
        return action();
      }
    },
    [ask],
  );
  const value = useMemo(() => requireFresh, [requireFresh]);
  return (
    <FreshAuthenticationContext.Provider value={value}>
      {children}
      {pending ? (
        <Suspense fallback={null}>
          <ReauthenticateDialog
            methods={pending.methods}
            onDone={() => pending.settle(true)}
            onCancel={() => pending.settle(false)}
          />
        </Suspense>
      ) : null}
    </FreshAuthenticationContext.Provider>
  );
}

/** The wrapper a sensitive action's call goes through (see FreshAuthenticationProvider). */
export function useRequireFresh(): RequireFresh {
  return useContext(FreshAuthenticationContext);
}

import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { toast, type ToastApi } from "../components/ui/toast";
import { ApiError, errorMessage } from "./api-error";
import { isTwoFactorRequired, sendToTwoFactorSetup } from "./two-factor-required";

/**
 * What a mutation may say about its own feedback, in `useMutation({ meta: { … } })`; the MutationCache below
 * acts on it, so pages need no try/catch/toast plumbing:
 * - `errorToast: false`: the form shows the error itself (an Alert, a field error), so no toast.
 *   Without it every failed mutation shows `toast.error(errorMessage(error))`.
 * - `successMessage`: a toast after success; a string, or a function of the mutation's data and variables.
 */
export type MutationFeedbackMeta = {
  errorToast?: boolean;
  successMessage?: string | SuccessMessage;
};

/**
 * Declared as a method so a mutation may annotate its own types, `successMessage: (member: Member) => …`:
 * the cache only ever calls it with that mutation's data and variables.
 */
type SuccessMessage = { message(data: unknown, variables: unknown): string }["message"];

declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: MutationFeedbackMeta;
  }
}

/**
 * The toast side of every mutation, driven by its `meta` (see MutationFeedbackMeta). A refusal for want of a second
 * factor the organization requires sends the person to set one up instead (./two-factor-required.ts).
 */
export function createMutationCache(notify: ToastApi = toast, onTwoFactorRequired = sendToTwoFactorSetup) {
  return new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      if (isTwoFactorRequired(error)) return onTwoFactorRequired();
      if (mutation.meta?.errorToast === false) return;
      notify.error(errorMessage(error));
    },
    onSuccess: (data, variables, _context, mutation) => {
      const message = mutation.meta?.successMessage;
      if (message === undefined) return;
      notify.success(typeof message === "function" ? message(data, variables) : message);
    },
  });
}

/** Any read an organization refuses for want of a second factor sends the person to set one up, as mutations do. */
export function createQueryCache(onTwoFactorRequired = sendToTwoFactorSetup) {
  return new QueryCache({
    onError: (error) => {
      if (isTwoFactorRequired(error)) onTwoFactorRequired();
    },
  });
}

export function createQueryClient(notify: ToastApi = toast, onTwoFactorRequired = sendToTwoFactorSetup) {
  return new QueryClient({
    queryCache: createQueryCache(onTwoFactorRequired),
    mutationCache: createMutationCache(notify, onTwoFactorRequired),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // A 4xx will not change on retry; a network blip might.
        retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      },
    },
  });
}

export const queryClient = createQueryClient();

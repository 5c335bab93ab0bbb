import { useMutation } from "@tanstack/react-query";
import { toResponseError } from "../../../lib/api-error";
import { useRefreshSession } from "../../../lib/session";

/**
 * The browser side of WebAuthn (@simplewebauthn/browser), loaded when a passkey is first needed rather than with
 * /sign-in. Passkey sign-in calls the two endpoints with plain fetches, so /sign-in does not load better-auth's
 * client for it either: the page's first load stays small (e2e/first-load.ts holds its budget).
 */
const webAuthn = () => import("@simplewebauthn/browser");

const PASSKEY_API = "/api/auth/passkey";

/** How a passkey sign-in ended without an error: signed in, or the prompt was closed or replaced (nothing to say). */
export type PasskeySignInOutcome = "signed-in" | "cancelled";

/**
 * Whether the browser fills passkeys into the identifier field's suggestions (conditional mediation). False where
 * WebAuthn is missing, so the page offers only the button there.
 */
export async function supportsPasskeyAutofill(): Promise<boolean> {
  if (typeof window === "undefined" || typeof window.PublicKeyCredential !== "function") return false;
  return (await webAuthn()).browserSupportsWebAuthnAutofill();
}

/** Ends a pending autofill request (the page is leaving), which then settles as "cancelled". */
export async function cancelPasskeyRequest(): Promise<void> {
  (await webAuthn()).WebAuthnAbortService.cancelCeremony();
}

/**
 * Signs in with a passkey, as the first factor or as the second step after a password: the server's challenge, the
 * browser's prompt (or, with `autoFill`, the suggestions of the field marked `autocomplete="… webauthn"`), then
 * the server's check, which sets the session cookie. Throws an ApiError for the server's refusals.
 */
export async function signInWithPasskey({
  autoFill = false,
}: { autoFill?: boolean } = {}): Promise<PasskeySignInOutcome> {
  const { startAuthentication, WebAuthnError } = await webAuthn();
  const options = await fetch(`${PASSKEY_API}/generate-authenticate-options`, { credentials: "same-origin" });
  if (!options.ok) throw await toResponseError(options);
  let response: Awaited<ReturnType<typeof startAuthentication>>;
  try {
    response = await startAuthentication({ optionsJSON: await options.json(), useBrowserAutofill: autoFill });
  } catch (error) {
    // Closing the prompt, its time running out, or a newer request taking over (the button during autofill).
    const cancelled =
      error instanceof WebAuthnError &&
      (error.code === "ERROR_CEREMONY_ABORTED" || error.code === "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY");
    if (cancelled) return "cancelled";
    throw error;
  }
  const verified = await fetch(`${PASSKEY_API}/verify-authentication`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ response }),
  });
  if (!verified.ok) throw await toResponseError(verified);
  return "signed-in";
}

/**
 * `signInWithPasskey` as a mutation that reloads the session from scratch once signed in: the sign-in page's
 * button and autofill use it, and so can the second step of a password sign-in ("Use a passkey").
 */
export function usePasskeySignIn() {
  const refreshSession = useRefreshSession();
  return useMutation({
    mutationFn: (options: { autoFill?: boolean } = {}) => signInWithPasskey(options),
    onSuccess: async (outcome) => {
      if (outcome === "signed-in") await refreshSession({ clearEverything: true });
    },
    meta: { errorToast: false },
  });
}

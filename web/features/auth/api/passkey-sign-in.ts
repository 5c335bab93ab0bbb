import { useMutation } from "@tanstack/react-query";
import { toResponseError } from "../../../lib/api-error";
import { authenticationOptions, promptedCredential } from "../../../lib/passkey-prompt";
import { useRefreshSession } from "../../../lib/session";

/**
 * The sign-in's passkey calls go through plain fetches (not better-auth's client), and the browser side of WebAuthn
 * (@simplewebauthn/browser) loads only when the button is first pressed (web/lib/passkey-prompt.ts): /sign-in's
 * first load stays within its budget (e2e/first-load.ts). The autofill uses the browser's own JSON methods instead.
 */
const PASSKEY_API = "/api/auth/passkey";

/** How a passkey sign-in ended without an error: signed in, or the prompt was closed or replaced (nothing to say). */
export type PasskeySignInOutcome = "signed-in" | "cancelled";

/** The JSON methods of WebAuthn Level 3, which TypeScript's DOM types do not list yet. */
type PublicKeyCredentialWithJson = typeof PublicKeyCredential & {
  parseRequestOptionsFromJSON?: (options: unknown) => PublicKeyCredentialRequestOptions;
};

/** The pending autofill request, which the button (a modal request) must end first: a browser runs one at a time. */
let autofill: AbortController | undefined;

/**
 * Whether the browser offers passkeys among the identifier field's suggestions (conditional mediation) and reads
 * the server's options itself. Elsewhere the page offers only the button.
 */
export async function supportsPasskeyAutofill(): Promise<boolean> {
  if (typeof window === "undefined" || typeof window.PublicKeyCredential !== "function") return false;
  const credential = window.PublicKeyCredential as PublicKeyCredentialWithJson;
  if (typeof credential.parseRequestOptionsFromJSON !== "function") return false;
  return (await credential.isConditionalMediationAvailable?.()) ?? false;
}

/** Ends a pending autofill request (the page is leaving), which then settles as "cancelled". */
export function cancelPasskeyAutofill(): void {
  autofill?.abort();
  autofill = undefined;
}

/** The browser's answer to the field's suggestions, or null once the request ends unanswered. */
async function autofillCredential(): Promise<unknown> {
  cancelPasskeyAutofill();
  const controller = new AbortController();
  autofill = controller;
  const parse = (window.PublicKeyCredential as PublicKeyCredentialWithJson).parseRequestOptionsFromJSON!;
  const publicKey = parse(await authenticationOptions());
  try {
    const credential = await navigator.credentials.get({
      publicKey,
      mediation: "conditional",
      signal: controller.signal,
    });
    return credential ? (credential as PublicKeyCredential).toJSON() : null;
  } catch (error) {
    if (error instanceof DOMException && (error.name === "AbortError" || error.name === "NotAllowedError")) return null;
    throw error;
  }
}

/**
 * Signs in with a passkey, as the first factor or as the second step after a password: the server's challenge, the
 * browser's prompt (or, with `autoFill`, the suggestions of the field marked `autocomplete="… webauthn"`), then
 * the server's check, which sets the session cookie. Throws an ApiError for the server's refusals.
 */
export async function signInWithPasskey({
  autoFill = false,
}: { autoFill?: boolean } = {}): Promise<PasskeySignInOutcome> {
  // The button's prompt ends the autofill's pending request first (a browser runs one at a time).
  if (!autoFill) cancelPasskeyAutofill();
  const response = autoFill ? await autofillCredential() : await promptedCredential();
  if (!response) return "cancelled";
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

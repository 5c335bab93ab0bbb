import { toResponseError } from "./api-error";

/**
 * The browser side of WebAuthn (@simplewebauthn/browser), loaded when a passkey button is first pressed rather than
 * with the page: /sign-in's first load stays within its budget (e2e/first-load.ts).
 */
const webAuthn = () => import("@simplewebauthn/browser");

/**
 * The server's challenge for a passkey (the passkey plugin keeps it in its challenge cookie). Signed in, it lists the
 * person's own passkeys.
 */
export async function authenticationOptions(): Promise<unknown> {
  const options = await fetch("/api/auth/passkey/generate-authenticate-options", { credentials: "same-origin" });
  if (!options.ok) throw await toResponseError(options);
  return options.json();
}

/**
 * The browser's prompt, or null when the person closes it or it times out (a pending autofill request must have ended
 * first: a browser runs one at a time). Signed in, the server's challenge lists
 * the person's own passkeys: the re-check (web/components/reauthenticate-dialog.tsx) sends the answer to the app.
 */
export async function promptedCredential(): Promise<unknown> {
  const { startAuthentication, WebAuthnError } = await webAuthn();
  const optionsJSON = (await authenticationOptions()) as Parameters<typeof startAuthentication>[0]["optionsJSON"];
  try {
    return await startAuthentication({ optionsJSON });
  } catch (error) {
    const cancelled =
      error instanceof WebAuthnError &&
      (error.code === "ERROR_CEREMONY_ABORTED" || error.code === "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY");
    if (cancelled) return null;
    throw error;
  }
}

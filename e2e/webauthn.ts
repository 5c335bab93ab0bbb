import type { Page } from "@playwright/test";

/**
 * Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain): a platform authenticator that keeps
 * discoverable credentials and verifies the user without a prompt, as a laptop's fingerprint reader would.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * The code an authenticator app set up with `key` (the setup key the page shows) shows `offset` steps of 30 seconds
 * from now. A code works once, so each use takes a later step: the server accepts the next step's too.
 */
export function codeFor(key: string, offset: number): Promise<string> {
  const step = Math.floor(Date.now() / 30_000) + offset;
  return createOTP(base32.decode(key.replace(/\s+/g, "")), { period: 30 }).hotp(step);
}

/**
 * Turns on an authenticator app on Account settings › Security, the way a person does: the password, the key the page
 * shows, the app's current code, from the page it is on
 * when that is Security. `check` runs on the enrolment step and on the backup codes. Returns the key.
 */
export async function turnOnAuthenticator(
  page: Page,
  password: string,
  check: (where: string) => Promise<void> = async () => undefined,
): Promise<string> {
  // From where the person is when that is the page already (sent there with `next`), else opened.
  if (new URL(page.url()).pathname !== "/account/security") await page.goto("/account/security");
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Set up" }).click();
  await expect(page.getByRole("heading", { name: "Set up your authenticator app" })).toBeFocused();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const key = (await page.getByLabel("Setup key").textContent()) ?? "";
  await check("Security while enrolling: the QR code, the key and the code field");
  await page.getByLabel("Code", { exact: true }).fill(await codeFor(key, 0));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("heading", { name: "Save your backup codes" })).toBeFocused();
  await check("Security showing the backup codes");
  await page.getByRole("button", { name: "I saved them" }).click();
  await expect(page.getByText("On", { exact: true })).toBeVisible();
  return key;
}

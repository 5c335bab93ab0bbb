import type { BrowserContext, Page } from "@playwright/test";
import { createOrganization, currentUserId, visit } from "./a11y";
import { makeSessionsStale } from "./database";
import { expect, fillSignIn, signUpAndVerify, uniqueUser, type Mailbox, type TestUser } from "./fixtures";
import { turnOnAuthenticator } from "./totp";
import { addVirtualAuthenticator } from "./webauthn";

/** A check of the screen as it is now (axe, or the small screen's width); `where` names it in the failure. */
export type ScreenCheck = (page: Page, where: string) => Promise<void>;

/**
 * Walks through every screen of second factors and passkeys and runs `check` on each, in the state that shows the
 * most: the passkeys list, Security off, while enrolling (QR code, key, code field), the backup codes, Security on,
 * the organization's Security settings with the policy on, the sign-in's second step (code and backup code), the
 * re-check dialog (password and code), and the admin's reset dialog. `owner` signs up on `page`; `openDevice` opens
 * another browser (sign-in and admin); `adminEmail` is one of the run's ADMIN_EMAILS (global-setup.ts).
 */
export async function walkSecondFactorScreens(options: {
  page: Page;
  mailbox: Mailbox;
  owner: TestUser;
  organization: { name: string; slug: string };
  passkeyName: string;
  adminEmail: string;
  openDevice: () => Promise<{ context: BrowserContext; page: Page }>;
  check: ScreenCheck;
}): Promise<void> {
  const { page, mailbox, owner, check } = options;
  await addVirtualAuthenticator(page);
  await signUpAndVerify(page, mailbox, owner);

  await visit(page, { path: "/account/sign-in-methods", heading: "Sign-in methods" });
  await page.getByRole("button", { name: "Add a passkey" }).click();
  const addPasskey = page.getByRole("dialog", { name: "Add a passkey" });
  await addPasskey.getByLabel("Name").fill(options.passkeyName);
  await addPasskey.getByRole("button", { name: "Continue" }).click();
  await expect(addPasskey).toBeHidden();
  await expect(page.getByRole("list", { name: "Your passkeys" }).getByRole("listitem")).toHaveCount(1);
  await check(page, "Sign-in methods listing a passkey");

  await visit(page, { path: "/account/security", heading: "Two-factor authentication" });
  await check(page, "Security with the second factor off");
  await turnOnAuthenticator(page, owner.password, (where) => check(page, where));
  await check(page, "Security with the second factor on");

  const organizationId = await createOrganization(page, options.organization.name, options.organization.slug);
  await visit(page, { path: `/organizations/${organizationId}/settings/security`, heading: "Require a second factor" });
  // Its state follows the server's answer, so it is clicked, then read.
  await page.getByRole("switch", { name: "Members must have a second factor" }).click();
  await expect(page.getByRole("switch", { name: "Members must have a second factor" })).toBeChecked();
  await expect(page.getByText("On: every member needs a second factor to open this organization.")).toBeVisible();
  await check(page, "the organization's Security settings with the policy on");

  // Another browser, without the passkey: the password, then the second step.
  const signIn = await options.openDevice();
  await fillSignIn(signIn.page, owner.email, owner.password);
  await expect(signIn.page).toHaveURL(/\/sign-in\/two-factor/, { timeout: 15_000 });
  await expect(signIn.page.getByLabel("Code", { exact: true })).toBeFocused();
  await check(signIn.page, "the sign-in's second step with a code");
  await signIn.page.getByRole("button", { name: "Use a backup code" }).click();
  await expect(signIn.page.getByLabel("Backup code", { exact: true })).toBeFocused();
  await check(signIn.page, "the sign-in's second step with a backup code");
  await signIn.context.close();

  // A sensitive action on a session older than 10 minutes asks to re-check.
  makeSessionsStale(owner.email);
  await visit(page, { path: "/account/security", heading: "Two-factor authentication" });
  const turnOff = page.locator("form").filter({ has: page.getByRole("button", { name: "Turn off" }) });
  await turnOff.getByLabel("Password", { exact: true }).fill(owner.password);
  await turnOff.getByRole("button", { name: "Turn off" }).click();
  const recheck = page.getByRole("dialog", { name: "Confirm it is you" });
  await expect(recheck.getByLabel("Password", { exact: true })).toBeFocused();
  await check(page, "the re-check dialog with the password");
  await recheck.getByRole("button", { name: "Use a code from your authenticator app" }).click();
  await expect(recheck.getByLabel("Code from your authenticator app", { exact: true })).toBeFocused();
  await check(page, "the re-check dialog with a code");
  await page.keyboard.press("Escape");
  await expect(recheck).toBeHidden();

  const admin = await options.openDevice();
  await signUpAndVerify(admin.page, mailbox, { ...uniqueUser("admin"), email: options.adminEmail });
  await visit(admin.page, { path: `/admin/users/${await currentUserId(page)}`, heading: owner.name });
  await admin.page.getByRole("button", { name: "Reset second factors" }).click();
  await expect(admin.page.getByRole("dialog", { name: `Reset the second factors of ${owner.name}?` })).toBeVisible();
  await check(admin.page, "the admin's dialog resetting a user's second factors");
  await admin.context.close();
}

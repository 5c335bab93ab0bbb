import type { Page, TestInfo } from "@playwright/test";
import { expect, fillSignIn, newDevice, signOut, signUpAndVerify, test } from "./fixtures";
import { codeFor, turnOnAuthenticator } from "./totp";

/** A small phone's width, where every screen must still work. */
const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

/** Screenshots of the current screen at desktop and phone width, kept with the test's results. */
async function screenshots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const [label, size] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

test("turn on the second factor with an authenticator app, then sign in with a code and with a backup code", async ({
  page,
  mailbox,
  user,
}, testInfo) => {
  // Sign-up, enrolment and three sign-ins, with screenshots at two widths: more than the default minute allows.
  test.setTimeout(180_000);
  await signUpAndVerify(page, mailbox, user);
  await page.goto("/account/security");
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await expect(page.getByText("Off", { exact: true })).toBeVisible();
  await screenshots(page, testInfo, "security-off");

  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Set up" }).click();
  await expect(page.getByRole("heading", { name: "Set up your authenticator app" })).toBeFocused();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const key = (await page.getByLabel("Setup key").textContent()) ?? "";
  await screenshots(page, testInfo, "security-enrol");

  await page.getByLabel("Code", { exact: true }).fill("000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(
    page.getByText("That code is not right. Enter the code your authenticator app shows now."),
  ).toBeVisible();
  await page.getByLabel("Code", { exact: true }).fill(await codeFor(key, 0));
  await page.getByRole("button", { name: "Turn on" }).click();

  await expect(page.getByRole("heading", { name: "Save your backup codes" })).toBeFocused();
  const backupCodes = await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allTextContents();
  expect(backupCodes).toHaveLength(10);
  await screenshots(page, testInfo, "security-backup-codes");
  await page.getByRole("button", { name: "I saved them" }).click();
  await expect(page.getByText("On", { exact: true })).toBeVisible();
  await screenshots(page, testInfo, "security-on");

  // Sign-in now stops at the second step; a wrong code is refused, the app's next code lets the person in.
  await signOut(page, user.name);
  await fillSignIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/sign-in\/two-factor/);
  await expect(page.getByLabel("Code", { exact: true })).toBeFocused();
  await screenshots(page, testInfo, "sign-in-second-step");
  await page.getByLabel("Code", { exact: true }).fill("000000");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(
    page.getByText("That code is not right. Enter the code your authenticator app shows now."),
  ).toBeVisible();
  await page.getByLabel("Code", { exact: true }).fill(await codeFor(key, 1));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: `Welcome, ${user.name}` })).toBeVisible();

  // Without the phone: a backup code, which works once.
  await signOut(page, user.name);
  await fillSignIn(page, user.email, user.password);
  await page.getByRole("button", { name: "Use a backup code" }).click();
  await screenshots(page, testInfo, "sign-in-backup-code");
  await page.getByLabel("Backup code", { exact: true }).fill(backupCodes[0]!);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: `Welcome, ${user.name}` })).toBeVisible();

  await signOut(page, user.name);
  await fillSignIn(page, user.email, user.password);
  await page.getByRole("button", { name: "Use a backup code" }).click();
  await page.getByLabel("Backup code", { exact: true }).fill(backupCodes[0]!);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("That backup code is not right, or it was already used.")).toBeVisible();
});

test("wrong codes end a sign-in at the fifth and lock the account at the tenth, each screen saying so", async ({
  page,
  mailbox,
  user,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await signUpAndVerify(page, mailbox, user);
  const key = await turnOnAuthenticator(page, user.password);

  // Two sign-ins of five wrong codes each (each ends at its fifth): ten in a row, from another browser (the code
  // checks of the enrolment count toward this one's address's limit of ten a minute).
  const laptop = await newDevice(browser, baseURL);
  const { page: guesser } = laptop;
  await fillSignIn(guesser, user.email, user.password);
  for (const round of [1, 2]) {
    await expect(guesser).toHaveURL(/\/sign-in\/two-factor/);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await guesser.getByLabel("Code", { exact: true }).fill("000000");
      const answered = guesser.waitForResponse((response) =>
        response.url().endsWith("/api/auth/two-factor/verify-totp"),
      );
      await guesser.getByRole("button", { name: "Continue" }).click();
      expect((await answered).status(), `round ${round}, code ${attempt}`).toBe(400);
    }
    await expect(guesser.getByText("Too many wrong codes. Sign in again with your password.")).toBeVisible();
    await expect(guesser.getByLabel("Code", { exact: true })).toHaveCount(0);
    if (round === 1) {
      await guesser.getByRole("link", { name: "Sign in again" }).click();
      await guesser.getByLabel("E-mail or username", { exact: true }).fill(user.email);
      await guesser.getByLabel("Password", { exact: true }).fill(user.password);
      await guesser.getByRole("button", { name: "Sign in", exact: true }).click();
    }
  }

  // The lock is the account's, not the browser's: elsewhere, even the right code is refused until it ends.
  const device = await newDevice(browser, baseURL);
  await fillSignIn(device.page, user.email, user.password);
  await device.page.getByLabel("Code", { exact: true }).fill(await codeFor(key, 1));
  await device.page.getByRole("button", { name: "Continue" }).click();
  await expect(
    device.page.getByText(
      new RegExp(
        "^Too many wrong codes were entered for this account, so it is locked for now\\. " +
          "Sign in again in 1[45] minutes\\.$",
      ),
    ),
  ).toBeVisible();
  await expect(device.page.getByRole("link", { name: "Sign in again" })).toBeVisible();
  await Promise.all([laptop.context.close(), device.context.close()]);
});

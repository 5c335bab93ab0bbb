import type { Page } from "@playwright/test";
import { makeSessionsStale, WRITES_THE_DATABASE } from "./database";
import { expect, signUpAndVerify, test } from "./fixtures";
import { codeFor, turnOnAuthenticator } from "./totp";
import { addVirtualAuthenticator } from "./webauthn";

/** Opens the deletion of the account and confirms it, by keyboard. */
async function startDeletingAccount(page: Page, password: string) {
  await page.goto("/account/delete");
  await page.getByRole("button", { name: "Delete my account…" }).focus();
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(confirm.getByLabel("Password", { exact: true })).toBeFocused();
  await page.keyboard.type(password);
  await page.keyboard.press("Tab");
  await expect(confirm.getByLabel("Type “delete my account”", { exact: true })).toBeFocused();
  await page.keyboard.type("delete my account");
  await page.keyboard.press("Enter");
}

async function expectAccountDeleted(page: Page) {
  await expect(page).toHaveURL(/\/\?notice=/);
  await expect(page.getByRole("status").filter({ hasText: "Your account was deleted." })).toBeVisible();
}

/**
 * A sensitive action on a session older than 10 minutes (aged through the database) asks to re-check in a dialog,
 * then completes without being started again; all by keyboard.
 */
test.describe("the re-check of a session older than 10 minutes", { tag: WRITES_THE_DATABASE }, () => {
  test("deleting the account asks for the password again, then deletes it", async ({ page, mailbox, user }) => {
    await signUpAndVerify(page, mailbox, user);
    makeSessionsStale(user.email);
    await startDeletingAccount(page, user.password);

    const recheck = page.getByRole("dialog", { name: "Confirm it is you" });
    const password = recheck.getByLabel("Password", { exact: true });
    await expect(password).toBeFocused();
    await page.keyboard.type("not-my-password");
    await page.keyboard.press("Enter");
    await expect(recheck.getByText("That password is not right.")).toBeVisible();
    await expect(password).toBeFocused();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(user.password);
    await page.keyboard.press("Enter");
    await expectAccountDeleted(page);
  });

  test("turning the second factor off asks for a code from the app, then turns it off", async ({
    page,
    mailbox,
    user,
  }) => {
    test.setTimeout(180_000);
    await signUpAndVerify(page, mailbox, user);
    const key = await turnOnAuthenticator(page, user.password);
    makeSessionsStale(user.email);
    await page.reload();
    const turnOff = page.locator("form").filter({ has: page.getByRole("button", { name: "Turn off" }) });
    await turnOff.getByLabel("Password", { exact: true }).focus();
    await page.keyboard.type(user.password);
    await page.keyboard.press("Enter");

    const recheck = page.getByRole("dialog", { name: "Confirm it is you" });
    await expect(recheck.getByLabel("Password", { exact: true })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(recheck.getByRole("button", { name: "Use a code from your authenticator app" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(recheck.getByLabel("Code from your authenticator app", { exact: true })).toBeFocused();
    // The enrolment used the current step's code: the app's next one.
    await page.keyboard.type(await codeFor(key, 1));
    await page.keyboard.press("Enter");

    await expect(recheck).toBeHidden();
    await expect(page.getByText("Off", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Set up" })).toBeVisible();
  });

  test("one of the account's passkeys re-checks too (Chromium's virtual authenticator answers)", async ({
    page,
    mailbox,
    user,
  }) => {
    test.setTimeout(180_000);
    await addVirtualAuthenticator(page);
    await signUpAndVerify(page, mailbox, user);
    await page.goto("/account/sign-in-methods");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    const add = page.getByRole("dialog", { name: "Add a passkey" });
    await add.getByLabel("Name").fill("Work laptop");
    await add.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("list", { name: "Your passkeys" }).getByRole("listitem")).toHaveCount(1);
    makeSessionsStale(user.email);

    await startDeletingAccount(page, user.password);
    const recheck = page.getByRole("dialog", { name: "Confirm it is you" });
    await expect(recheck.getByLabel("Password", { exact: true })).toBeFocused();
    await recheck.getByRole("button", { name: "Use a passkey" }).focus();
    await page.keyboard.press("Enter");
    await expectAccountDeleted(page);
  });
});

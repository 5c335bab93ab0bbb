import { SUBJECTS, expect, fillSignIn, signUpAndVerify, test } from "./fixtures";

test("delete the account through the confirmation dialog; signing in again fails", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.goto("/account");
  await page.getByRole("navigation", { name: "Account settings" }).getByRole("link", { name: "Delete account" }).click();
  await page.getByRole("button", { name: "Delete my account…" }).click();

  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Password", { exact: true })).toBeFocused();

  // Nothing happens until the password and the confirmation phrase are given.
  await dialog.getByRole("button", { name: "Delete account" }).click();
  await expect(dialog.getByText("Enter your password", { exact: true })).toBeVisible();
  await expect(dialog.getByText("Type “delete my account” to confirm")).toBeVisible();

  await dialog.getByLabel("Password", { exact: true }).fill("not-my-password");
  await dialog.getByLabel("Type “delete my account”", { exact: true }).fill("delete my account");
  await dialog.getByRole("button", { name: "Delete account" }).click();
  await expect(dialog.getByText("That password is not right.")).toBeVisible();

  await dialog.getByLabel("Password", { exact: true }).fill(user.password);
  await dialog.getByRole("button", { name: "Delete account" }).click();

  await expect(page).toHaveURL(/\/\?notice=/);
  await expect(page.getByRole("status").filter({ hasText: "Your account was deleted." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "The foundation for your SaaS" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Account menu/ })).toHaveCount(0);
  await mailbox.waitFor(user.email, SUBJECTS.accountDeleted);

  await fillSignIn(page, user.email, user.password);
  await expect(page.getByRole("alert")).toHaveText("That e-mail or password is not right.");
});

test("cancelling the dialog keeps the account", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.goto("/account/delete");
  await page.getByRole("button", { name: "Delete my account…" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Delete my account…" }).click();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.getByRole("button", { name: `Account menu for ${user.name}` })).toBeVisible();
});

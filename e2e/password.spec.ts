import { SUBJECTS, expect, newDevice, signIn, signUpAndVerify, test } from "./fixtures";

test("change the password: a wrong current password is refused inline; success signs out the other sessions", async ({
  page,
  mailbox,
  user,
  browser,
  baseURL,
}) => {
  await signUpAndVerify(page, mailbox, user);
  const laptop = await newDevice(browser, baseURL);
  const otherPage = laptop.page;
  await signIn(otherPage, user.email, user.password, user.name);

  await page.goto("/account/password");
  await page.getByLabel("Current password", { exact: true }).fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("A-brand-new-secret-1");
  await page.getByLabel("Confirm new password", { exact: true }).fill("A-brand-new-secret-1");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("That is not your current password.")).toBeVisible();
  await expect(page.getByLabel("Current password", { exact: true })).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Current password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password changed" })).toBeVisible();
  await expect(page.getByLabel("Current password", { exact: true })).toHaveValue("");
  await mailbox.waitFor(user.email, SUBJECTS.passwordChanged);

  // This device stays signed in; the other one has lost its session.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();
  await otherPage.goto("/account");
  await expect(otherPage).toHaveURL(/\/sign-in\?redirect=/);
  await expect(otherPage.getByRole("heading", { name: "Sign in" })).toBeVisible();

  // The old password no longer works; the new one does.
  await otherPage.getByLabel("E-mail or username", { exact: true }).fill(user.email);
  await otherPage.getByLabel("Password", { exact: true }).fill(user.password);
  await otherPage.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(otherPage.getByRole("alert")).toHaveText("That e-mail or password is not right.");
  await otherPage.getByLabel("Password", { exact: true }).fill("A-brand-new-secret-1");
  await otherPage.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(otherPage.getByRole("heading", { name: "Account settings" })).toBeVisible();
  await laptop.context.close();
});

test("the new password must be long enough and confirmed", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.goto("/account/password");
  await page.getByLabel("Current password", { exact: true }).fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("Confirm new password", { exact: true }).fill("different");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Use at least 8 characters")).toBeVisible();
  await expect(page.getByText("The passwords do not match")).toBeVisible();
});

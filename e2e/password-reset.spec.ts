import { SUBJECTS, expect, extractLink, signIn, signOut, signUpAndVerify, test } from "./fixtures";

test("sign out, then reset a forgotten password through the mailed link and sign in with the new one", async ({
  page,
  mailbox,
  user,
}) => {
  await signUpAndVerify(page, mailbox, user);
  await signOut(page, user.name);
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?redirect=/);

  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await page.getByLabel("E-mail", { exact: true }).fill(user.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status").filter({ hasText: `If an account exists for ${user.email}` })).toBeVisible();

  const mail = await mailbox.waitFor(user.email, SUBJECTS.passwordReset);
  const link = extractLink(mail.text);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("Reset-and-renewed-42");
  await page.getByLabel("Confirm new password", { exact: true }).fill("Reset-and-renewed-42");
  await page.getByRole("button", { name: "Save new password" }).click();

  await expect(page).toHaveURL(/\/sign-in/);
  await expect(
    page.getByRole("status").filter({ hasText: "Your password was changed. Sign in with the new one." }),
  ).toBeVisible();
  await signIn(page, user.email, "Reset-and-renewed-42", user.name);

  // The link works once: opened again, it says so and offers a new one.
  await signOut(page, user.name);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("The link is invalid or has expired.");
  await page.getByRole("link", { name: "Ask for a new one" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
});

test("a made-up reset or verification link shows a clear message", async ({ page, baseURL }) => {
  await page.goto("/api/auth/reset-password/not-a-real-token?callbackURL=%2Freset-password");
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();

  await page.goto("/reset-password");
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();

  await page.goto(`${baseURL}/api/auth/verify-email?token=not-a-real-token&callbackURL=%2F`);
  await expect(page.getByRole("alert")).toHaveText("That link is invalid or has expired. Ask for a new one.");
});

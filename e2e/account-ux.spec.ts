import { expect, extractLink, fillSignIn, signUp, signUpAndVerify, SUBJECTS, test } from "./fixtures";

test("verifying the e-mail address says so, on the page the link was going to", async ({ page, mailbox, user }) => {
  await signUp(page, user);
  const mail = await mailbox.waitFor(user.email, SUBJECTS.verification);
  await page.goto(extractLink(mail.text));
  // The landing page goes straight on; the toast says so on the page the link was going to.
  await expect(page.getByRole("heading", { name: `Welcome, ${user.name}` })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Your e-mail address is verified." })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // A link that does not work says why and what to do.
  await page.goto("/api/auth/verify-email?token=not-a-real-token&callbackURL=%2F");
  await expect(page).toHaveURL(/\/email-verified\?next=%2F&error=INVALID_TOKEN$/);
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText("That link is invalid or has expired. Ask for a new one.");
});

test("after a failed sign-in the focus is on the error", async ({ page, user, mailbox }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.context().clearCookies();
  await fillSignIn(page, user.email, "not-my-password-1");
  await expect(page.getByRole("alert")).toHaveText("That e-mail or password is not right.");
  await expect(page.locator(":focus")).toHaveText("That e-mail or password is not right.");
  // Again, with the same answer: the focus goes back to it.
  await page.getByLabel("Password", { exact: true }).fill("still-not-my-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator(":focus")).toHaveText("That e-mail or password is not right.");
});

test("the new password must differ from the current one", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.goto("/account/password");
  await page.getByLabel("Current password", { exact: true }).fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill(user.password);
  await page.getByLabel("Confirm new password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(
    page.getByText("The new password is the same as your current one. Choose a different password."),
  ).toBeVisible();
  await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("New password", { exact: true })).toBeFocused();

  // The server refuses it too, with the catalogue's code and its own message.
  const answer = await page.request.post("/api/auth/change-password", {
    data: { currentPassword: user.password, newPassword: user.password },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(answer.status()).toBe(400);
  expect(await answer.json()).toEqual({
    code: "PASSWORD_UNCHANGED",
    message: "The new password must differ from the current password",
    requestId: expect.any(String),
  });
});

test("after saving a username the field no longer says it is available, and the toast leaves the button free", async ({
  page,
  mailbox,
  user,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signUpAndVerify(page, mailbox, user);
  await page.goto("/account");
  const username = `${user.username.slice(0, 20)}_new`;
  await page.getByLabel("Username", { exact: true }).fill(username);
  await expect(page.getByText("✓ This username is available")).toBeVisible();
  const save = page.getByRole("button", { name: "Save profile" });
  await save.scrollIntoViewIfNeeded();
  await save.click();
  const toast = page.getByRole("status").filter({ hasText: "Profile saved" });
  await expect(toast).toBeVisible();
  await expect(page.getByText("✓ This username is available")).toHaveCount(0);
  await expect(page.getByText("3 to 30 letters, digits, dots or underscores.")).toBeVisible();
  await expect(page.getByLabel("Username", { exact: true })).toHaveValue(username);

  const toastBox = await toast.boundingBox();
  const saveBox = await save.boundingBox();
  expect(toastBox && saveBox).toBeTruthy();
  const overlaps =
    toastBox!.x < saveBox!.x + saveBox!.width &&
    saveBox!.x < toastBox!.x + toastBox!.width &&
    toastBox!.y < saveBox!.y + saveBox!.height &&
    saveBox!.y < toastBox!.y + toastBox!.height;
  expect(overlaps).toBe(false);
});

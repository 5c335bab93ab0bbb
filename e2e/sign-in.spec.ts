import { SUBJECTS, expect, fillSignIn, newDevice, signIn, signUp, signUpAndVerify, test } from "./fixtures";

test.describe("sign in", () => {
  test("with the e-mail address", async ({ page, mailbox, user, browser, baseURL }) => {
    await signUpAndVerify(page, mailbox, user);
    const device = await newDevice(browser, baseURL);
    await signIn(device.page, user.email, user.password, user.name);
    await expect(device.page.getByText(`Signed in as ${user.email}`)).toBeVisible();
    await device.context.close();
  });

  test("with the username in the same field", async ({ page, mailbox, user }) => {
    await signUpAndVerify(page, mailbox, user);
    await page.context().clearCookies();
    await signIn(page, user.username, user.password, user.name);
    await expect(page.getByText(`@${user.username}`)).toBeVisible();
  });

  test("a wrong password shows the server's answer inline and keeps the form", async ({ page, mailbox, user }) => {
    await signUpAndVerify(page, mailbox, user);
    await page.context().clearCookies();

    await fillSignIn(page, user.email, "not-the-password");
    await expect(page.getByRole("alert")).toHaveText("That e-mail or password is not right.");
    await expect(page.getByLabel("E-mail or username", { exact: true })).toHaveValue(user.email);

    await fillSignIn(page, user.username, "not-the-password");
    await expect(page.getByRole("alert")).toHaveText("That username or password is not right.");
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test("an unverified account is told to verify and receives a new link", async ({ page, mailbox, user }) => {
    await signUp(page, user);
    await mailbox.waitFor(user.email, SUBJECTS.verification);

    await fillSignIn(page, user.email, user.password);
    await expect(page.getByRole("alert")).toContainText("Verify your e-mail address first");
    await mailbox.waitFor(user.email, SUBJECTS.verification, { atLeast: 2 });
    await expect(page.getByRole("button", { name: /Account menu/ })).toHaveCount(0);
  });

  test("a signed-out visitor to a private page signs in and comes back to it", async ({ page, mailbox, user }) => {
    await signUpAndVerify(page, mailbox, user);
    await page.context().clearCookies();
    await page.goto("/account/sessions");
    await expect(page).toHaveURL(/\/sign-in\?redirect=/);
    await page.getByLabel("E-mail or username", { exact: true }).fill(user.email);
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();
    await expect(page).toHaveURL(/\/account\/sessions$/);
  });
});

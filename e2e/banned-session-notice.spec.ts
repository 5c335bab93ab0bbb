import { expect, newDevice, signUpAndVerify, test, uniqueUser } from "./fixtures";

// global-setup.ts lists this address in ADMIN_EMAILS, so whoever signs up with it is a platform admin.
const ADMIN_EMAIL = "ban-notice-admin@example.test";

test("a person banned while a tab is open is sent to sign-in with the reason, not without a word", async ({
  page,
  browser,
  baseURL,
  mailbox,
  user,
}) => {
  test.setTimeout(180_000);
  await signUpAndVerify(page, mailbox, user);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/account$/);
  const userId = await page.evaluate(async () => {
    const session = (await (await fetch("/api/auth/get-session")).json()) as { user: { id: string } };
    return session.user.id;
  });

  const admin = await newDevice(browser, baseURL);
  await signUpAndVerify(admin.page, mailbox, { ...uniqueUser("admin"), email: ADMIN_EMAIL });
  const banned = await admin.page.evaluate(async (id) => {
    const response = await fetch("/api/auth/admin/ban-user", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userId: id, banReason: "Spam" }),
    });
    return response.status;
  }, userId);
  expect(banned).toBe(200);
  await admin.context.close();

  await page.reload();
  await expect(page).toHaveURL(/\/sign-in\?/);
  await expect(
    page.getByRole("alert").filter({ hasText: "You were signed out. Your account is banned." }),
  ).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("banned-sign-in.png") });

  // The notice is the redirect's, not the page's: sign-in opened without it says nothing of a ban.
  await page.goto("/sign-in");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expect(page.getByText("Your account is banned.")).toHaveCount(0);
});

import type { Page } from "@playwright/test";
import { expect, newDevice, signIn, signUpAndVerify, test } from "./fixtures";

/**
 * Every main page opens with its heading, in both themes, and fits a phone. No pictures are kept: pixel
 * baselines would break on any font or Chromium update, so the pages are checked by what they show.
 * The theme is chosen the way a returning visitor's is: from localStorage before the first paint.
 */
for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem("atrium-theme", value), theme);
    });

    /** The page is drawn in the chosen theme. */
    const expectTheme = async (page: Page) => {
      if (theme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      else await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    };

    test("signed-out pages", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { name: "The foundation for your SaaS" })).toBeVisible();
      await expectTheme(page);
      await page.goto("/sign-in");
      await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
      await expectTheme(page);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page.getByText("Enter your e-mail or username")).toBeVisible();
      await expectTheme(page);
      await page.goto("/sign-up");
      await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
      await expectTheme(page);
      await page.goto("/forgot-password");
      await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
      await expectTheme(page);
      await page.goto("/check-email?email=someone%40example.test");
      await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
      await expectTheme(page);
      await page.goto("/reset-password?error=INVALID_TOKEN");
      await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
      await expectTheme(page);
    });

    test("signed-in pages and the dev mailbox", async ({ page, mailbox, user, browser, baseURL }) => {
      await signUpAndVerify(page, mailbox, user);
      await expectTheme(page);
      await page.getByRole("button", { name: `Account menu for ${user.name}` }).click();
      await expect(page.getByRole("menu")).toBeVisible();
      await expectTheme(page);
      await page.keyboard.press("Escape");

      await page.goto("/account");
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue(user.name);
      await expectTheme(page);
      await page.goto("/account/password");
      await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();
      await expectTheme(page);

      const phone = await newDevice(browser, baseURL);
      await signIn(phone.page, user.email, user.password, user.name);
      await phone.context.close();
      await page.goto("/account/sessions");
      await expect(page.getByRole("row")).toHaveCount(3);
      await expectTheme(page);
      await page.getByRole("button", { name: "Sign out all other sessions" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectTheme(page);

      await page.goto("/account/delete");
      await page.getByRole("button", { name: "Delete my account…" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectTheme(page);

      await page.goto("/dev/mail");
      await expect(page.getByRole("list", { name: "Mails" })).toBeVisible();
      await expectTheme(page);
      await page.getByRole("searchbox", { name: "Recipient" }).fill(user.email);
      await expect(page.getByRole("article", { name: /Verify your e-mail address/ })).toBeVisible();
      await expectTheme(page);
    });
  });
}

test.describe("narrow screen", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("pages fit a phone without sideways scrolling of the page", async ({
    page,
    mailbox,
    user,
    browser,
    baseURL,
  }) => {
    const fitsWidth = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await fitsWidth();

    await signUpAndVerify(page, mailbox, user);
    await fitsWidth();

    const phone = await newDevice(browser, baseURL);
    await signIn(phone.page, user.email, user.password, user.name);
    await phone.context.close();
    await page.goto("/account/sessions");
    await expect(page.getByRole("row")).toHaveCount(3);
    await fitsWidth();

    await page.goto("/dev/mail");
    await page.getByRole("searchbox", { name: "Recipient" }).fill(user.email);
    await expect(page.getByRole("article", { name: /Verify your e-mail address/ })).toBeVisible();
    await fitsWidth();
  });
});

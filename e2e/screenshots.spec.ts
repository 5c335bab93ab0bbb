import type { Page } from "@playwright/test";
import { expect, newDevice, saveScreenshot, signIn, signUpAndVerify, test } from "./fixtures";

/**
 * Full-page pictures of the main pages in both themes, kept in test-results/screenshots for review.
 * The theme is chosen the way a returning visitor's is: from localStorage before the first paint.
 */
for (const theme of ["light", "dark"] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem("atrium-theme", value), theme);
    });

    const shoot = async (page: Page, name: string) => {
      if (theme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      else await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
      await saveScreenshot(page, `${theme}-${name}`);
    };

    test("signed-out pages", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { name: "The foundation for your SaaS" })).toBeVisible();
      await shoot(page, "home-signed-out");
      await page.goto("/sign-in");
      await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
      await shoot(page, "sign-in");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByText("Enter your e-mail or username")).toBeVisible();
      await shoot(page, "sign-in-errors");
      await page.goto("/sign-up");
      await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
      await shoot(page, "sign-up");
      await page.goto("/forgot-password");
      await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
      await shoot(page, "forgot-password");
      await page.goto("/check-email?email=someone%40example.test");
      await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
      await shoot(page, "check-email");
      await page.goto("/reset-password?error=INVALID_TOKEN");
      await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
      await shoot(page, "reset-link-invalid");
    });

    test("signed-in pages and the dev mailbox", async ({ page, mailbox, user, browser, baseURL }) => {
      await signUpAndVerify(page, mailbox, user);
      await shoot(page, "home");
      await page.getByRole("button", { name: `Account menu for ${user.name}` }).click();
      await expect(page.getByRole("menu")).toBeVisible();
      await shoot(page, "header-menu");
      await page.keyboard.press("Escape");

      await page.goto("/account");
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue(user.name);
      await shoot(page, "account-profile");
      await page.goto("/account/password");
      await expect(page.getByRole("heading", { name: "Change password" })).toBeVisible();
      await shoot(page, "account-password");

      const phone = await newDevice(browser, baseURL);
      await signIn(phone.page, user.email, user.password, user.name);
      await phone.context.close();
      await page.goto("/account/sessions");
      await expect(page.getByRole("row")).toHaveCount(3);
      await shoot(page, "account-sessions");
      await page.getByRole("button", { name: "Sign out all other sessions" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await shoot(page, "account-sessions-confirm");

      await page.goto("/account/delete");
      await page.getByRole("button", { name: "Delete my account…" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await shoot(page, "account-delete-dialog");

      await page.goto("/dev/mail");
      await expect(page.getByRole("list", { name: "Mails" })).toBeVisible();
      await shoot(page, "dev-mail");
      await page.getByRole("searchbox", { name: "Recipient" }).fill(user.email);
      await expect(page.getByRole("article", { name: /Verify your e-mail address/ })).toBeVisible();
      await shoot(page, "dev-mail-filtered");
    });
  });
}

test.describe("narrow screen", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("pages fit a phone without sideways scrolling of the page", async ({ page, mailbox, user, browser, baseURL }) => {
    const fitsWidth = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await fitsWidth();
    await saveScreenshot(page, "narrow-sign-in");

    await signUpAndVerify(page, mailbox, user);
    await fitsWidth();
    await saveScreenshot(page, "narrow-home");

    const phone = await newDevice(browser, baseURL);
    await signIn(phone.page, user.email, user.password, user.name);
    await phone.context.close();
    await page.goto("/account/sessions");
    await expect(page.getByRole("row")).toHaveCount(3);
    await fitsWidth();
    await saveScreenshot(page, "narrow-account-sessions");

    await page.goto("/dev/mail");
    await page.getByRole("searchbox", { name: "Recipient" }).fill(user.email);
    await expect(page.getByRole("article", { name: /Verify your e-mail address/ })).toBeVisible();
    await fitsWidth();
    await saveScreenshot(page, "narrow-dev-mail");
  });
});

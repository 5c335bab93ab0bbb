import { expect, signOut, signUpAndVerify, test } from "./fixtures";
import { addVirtualAuthenticator } from "./webauthn";

test.describe("passkeys", () => {
  test("added on Sign-in methods, then offered by the browser on the sign-in page", async ({ page, mailbox, user }) => {
    await addVirtualAuthenticator(page);
    await signUpAndVerify(page, mailbox, user);

    await page.goto("/account/sign-in-methods");
    const card = page
      .locator("section, div")
      .filter({ has: page.getByRole("heading", { name: "Passkeys" }) })
      .last();
    await expect(page.getByText("You have no passkeys yet.")).toBeVisible();

    await page.getByRole("button", { name: "Add a passkey" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a passkey" });
    // An empty name is refused before the browser is asked.
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog.getByText("Enter a name for the passkey")).toBeVisible();
    await dialog.getByLabel("Name").fill("Work laptop");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog).toBeHidden();

    const list = page.getByRole("list", { name: "Your passkeys" });
    await expect(list.getByRole("listitem")).toHaveCount(1);
    await expect(list.getByText("Work laptop")).toBeVisible();
    await expect(list.getByText("Never used to sign in.")).toBeVisible();

    // Renaming, by keyboard.
    await page.getByRole("button", { name: "Rename Work laptop" }).focus();
    await page.keyboard.press("Enter");
    const rename = page.getByRole("dialog", { name: "Rename Work laptop" });
    await rename.getByLabel("Name").fill("Desk laptop");
    await page.keyboard.press("Enter");
    await expect(rename).toBeHidden();
    await expect(list.getByText("Desk laptop")).toBeVisible();
    await card.screenshot({ path: test.info().outputPath("passkeys-card.png") });

    // The sign-in page asks the browser for a passkey as it opens (autofill); Chromium's virtual authenticator answers
    // with its one discoverable passkey at once, so the page signs in before anyone could press the button.
    await signOut(page, user.name);
    await expect(page.getByRole("heading", { name: `Welcome, ${user.name}` })).toBeVisible();

    await page.goto("/account/sign-in-methods");
    await expect(list.getByText(/Last used /)).toBeVisible();

    // Deleting asks first; Cancel keeps it.
    await page.getByRole("button", { name: "Delete Desk laptop" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete Desk laptop?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(list.getByRole("listitem")).toHaveCount(1);
    await page.getByRole("button", { name: "Delete Desk laptop" }).click();
    await confirm.getByRole("button", { name: "Delete passkey" }).click();
    await expect(page.getByText("You have no passkeys yet.")).toBeVisible();
  });

  test("the passkeys section fits a 375 px screen", async ({ page, mailbox, user }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await addVirtualAuthenticator(page);
    await signUpAndVerify(page, mailbox, user);
    await page.goto("/account/sign-in-methods");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    await page.getByRole("dialog").getByLabel("Name").fill("A phone with a rather long name for its passkey");
    await page.getByRole("dialog").getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("list", { name: "Your passkeys" }).getByRole("listitem")).toHaveCount(1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath("passkeys-375.png"), fullPage: true });
  });
});

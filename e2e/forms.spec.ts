import { expect, signUpAndVerify, test } from "./fixtures";

test("sign-up checks each field as the server does, inline, before anything is sent", async ({ page }) => {
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/auth/sign-up")) sent.push(request.url());
  });
  await page.goto("/sign-up");
  const name = page.getByLabel("Name", { exact: true });
  const email = page.getByLabel("E-mail", { exact: true });
  const username = page.getByLabel("Username (optional)", { exact: true });
  const password = page.getByLabel("Password", { exact: true });

  await email.fill("not-an-address");
  await email.blur();
  await expect(page.getByText("Enter a valid e-mail address")).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");

  await username.fill("no spaces");
  await username.blur();
  await expect(page.getByText("Use only letters, digits, dots and underscores")).toBeVisible();
  await username.fill("ab");
  await expect(page.getByText("Use at least 3 characters")).toBeVisible();

  await password.fill("short");
  await password.blur();
  await expect(page.getByText("Use at least 8 characters")).toBeVisible();
  await expect(password).toHaveAccessibleDescription(/Use at least 8 characters/);

  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter your name")).toBeVisible();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  expect(sent).toEqual([]);

  // Fixing a field clears its message as the person types.
  await email.fill("fixed@example.test");
  await expect(page.getByText("Enter a valid e-mail address")).toHaveCount(0);
  await username.fill("");
  await expect(page.getByText("Use at least 3 characters")).toHaveCount(0);
});

test("the sign-in button shows progress and refuses a second click while the request runs", async ({
  page,
  mailbox,
  user,
}) => {
  await signUpAndVerify(page, mailbox, user);
  await page.context().clearCookies();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/auth/sign-in/**", async (route) => {
    await released;
    await route.continue();
  });

  await page.goto("/sign-in");
  await page.getByLabel("E-mail or username", { exact: true }).fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  const busy = page.getByRole("button", { name: "Signing in…" });
  await expect(busy).toBeDisabled();
  await expect(busy).toHaveAttribute("aria-busy", "true");
  release();
  await expect(page.getByRole("heading", { name: `Welcome, ${user.name}` })).toBeVisible();
});

test("sign in with the keyboard only: Tab through the form, Enter to submit", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.context().clearCookies();
  await page.goto("/sign-in");

  const identifier = page.getByLabel("E-mail or username", { exact: true });
  await expect(identifier).toBeFocused();
  await page.keyboard.type(user.username);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await page.keyboard.type(user.password);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("checkbox", { name: "Keep me signed in" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Forgot password?" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: `Welcome, ${user.name}` })).toBeVisible();
});

test("the header menu and dialogs work from the keyboard", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.getByRole("button", { name: `Account menu for ${user.name}` }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Account settings" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Account settings" })).toBeVisible();

  await page.goto("/account/delete");
  await page.getByRole("button", { name: "Delete my account…" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Delete my account…" })).toBeFocused();
});

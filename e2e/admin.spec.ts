import { expect, newDevice, signIn, signUpAndVerify, test, uniqueUser } from "./fixtures";

// global-setup.ts lists this address in ADMIN_EMAILS, so whoever signs up with it is a platform admin.
const PLATFORM_ADMIN_EMAIL = "platform-admin@example.test";

test("a platform admin finds a user, bans and unbans them, impersonates them and deletes them", async ({ page, browser, baseURL, mailbox }) => {
  test.setTimeout(90_000);
  const admin = { ...uniqueUser("admin"), email: PLATFORM_ADMIN_EMAIL };
  const person = uniqueUser("person");
  const device = await newDevice(browser, baseURL);
  await signUpAndVerify(device.page, mailbox, person);

  await signUpAndVerify(page, mailbox, admin);
  await page.getByRole("button", { name: `Account menu for ${admin.name}` }).click();
  await page.getByRole("menuitem", { name: "Admin console" }).click();
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();

  await page.getByLabel("Search users").fill(person.email);
  await expect(page.getByRole("row")).toHaveCount(2);
  await page.getByRole("button", { name: `Manage ${person.name}` }).click();
  const dialog = page.getByRole("dialog", { name: person.name });
  await expect(dialog.getByRole("list", { name: `Sessions of ${person.name}` }).getByRole("listitem")).toHaveCount(1);

  // A ban ends the person's sessions and refuses their sign-in.
  await dialog.getByLabel("Reason (optional)").fill("Spam");
  await dialog.getByRole("button", { name: "Ban user" }).click();
  await expect(dialog.getByText("Spam")).toBeVisible();
  await device.page.reload();
  await expect(device.page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
  await device.page.goto("/sign-in");
  await device.page.getByLabel("E-mail or username", { exact: true }).fill(person.email);
  await device.page.getByLabel("Password", { exact: true }).fill(person.password);
  await device.page.getByRole("button", { name: "Sign in" }).click();
  await expect(device.page.getByRole("alert")).toBeVisible();
  await expect(device.page).toHaveURL(/\/sign-in/);

  // Lifted, the person signs in again.
  await dialog.getByRole("button", { name: "Lift ban" }).click();
  await expect(dialog.getByRole("button", { name: "Ban user" })).toBeVisible();
  await signIn(device.page, person.email, person.password, person.name);

  // Impersonation shows the person's home with a banner, and stopping returns to the console.
  await dialog.getByRole("button", { name: `Impersonate ${person.name}` }).click();
  await expect(page.getByRole("heading", { name: `Welcome, ${person.name}` })).toBeVisible();
  await expect(page.getByText(`You are browsing as ${person.name}`)).toBeVisible();
  await page.getByRole("button", { name: "Stop impersonating" }).click();
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
  await expect(page.getByText(/You are browsing as/)).toHaveCount(0);

  // Deleting the user removes them from the list.
  await page.getByLabel("Search users").fill(person.email);
  await page.getByRole("button", { name: `Manage ${person.name}` }).click();
  await page
    .getByRole("dialog", { name: person.name })
    .getByRole("button", { name: `Delete ${person.name}` })
    .click();
  await page
    .getByRole("dialog", { name: `Delete ${person.name}?` })
    .getByRole("button", { name: "Delete user" })
    .click();
  await expect(page.getByText("No users match")).toBeVisible();
  await device.context.close();
});

test("the admin console is not offered to, nor reachable by, an ordinary user", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.getByRole("button", { name: `Account menu for ${user.name}` }).click();
  await expect(page.getByRole("menuitem", { name: "Admin console" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: `Welcome, ${user.name}` })).toBeVisible();
  const response = await page.request.get("/api/auth/admin/list-users");
  expect(response.status()).toBe(403);
});

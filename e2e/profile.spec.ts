import { expect, signUp, signUpAndVerify, test, uniqueUser } from "./fixtures";

/** Avatars are https only (an http image would be blocked by the page's CSP); the browser need not reach it. */
const AVATAR = "https://avatars.example.test/grace.svg";

test("edit the profile: name, avatar URL and username with the live availability check", async ({
  page,
  mailbox,
  user,
}) => {
  const other = uniqueUser("taken");
  await signUp(page, other);
  await signUpAndVerify(page, mailbox, user);

  await page.getByRole("link", { name: "Open account settings" }).click();
  await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
  const name = page.getByLabel("Name", { exact: true });
  const avatar = page.getByLabel("Avatar URL", { exact: true });
  const username = page.getByLabel("Username", { exact: true });
  await expect(name).toHaveValue(user.name);
  await expect(username).toHaveValue(user.username);

  await username.fill(other.username);
  await expect(page.getByText("This username is already taken")).toBeVisible();
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("That username is already taken. Try another.")).toBeVisible();

  const newUsername = `${user.username.slice(0, 24)}_new`;
  await username.fill(newUsername);
  await expect(page.getByText("This username is available")).toBeVisible();

  await name.fill("Grace Hopper");
  await avatar.fill(AVATAR);
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Profile saved" })).toBeVisible();

  // The header menu and the home page show the saved profile, also after a reload.
  await page.reload();
  await expect(name).toHaveValue("Grace Hopper");
  await expect(username).toHaveValue(newUsername);
  await expect(avatar).toHaveValue(AVATAR);
  const menu = page.getByRole("button", { name: "Account menu for Grace Hopper" });
  // The image itself cannot load here (no network): the menu shows the initials in its place.
  await expect(menu.locator("[data-initials]")).toHaveAttribute("data-initials", "GH");
  await menu.click();
  await expect(page.getByRole("menu")).toContainText("Grace Hopper");
  await expect(page.getByRole("menu")).toContainText(user.email);
  await page.keyboard.press("Escape");
  await page.getByRole("link", { name: "Atrium" }).click();
  await expect(page.getByRole("heading", { name: "Welcome, Grace Hopper" })).toBeVisible();
  await expect(page.getByText(`@${newUsername}`)).toBeVisible();
});

test("profile fields are checked before saving", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.goto("/account");
  await page.getByLabel("Name", { exact: true }).fill("");
  await page.getByLabel("Avatar URL", { exact: true }).fill("not a url");
  await page.getByLabel("Username", { exact: true }).fill("no spaces allowed");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Enter your name")).toBeVisible();
  await expect(page.getByText("Enter a full URL, starting with https://")).toBeVisible();
  await expect(page.getByText("Use only letters, digits, dots and underscores")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
});

import {
  expect,
  extractLink,
  invitationLink,
  invite,
  newDevice,
  openSettingsTab,
  signUpAndVerify,
  test,
  uniqueUser,
  type TestUser,
} from "./fixtures";
import type { Page } from "@playwright/test";

function switcher(page: Page) {
  return page.getByRole("button", { name: /Switch organization$/ });
}

test("an organization's life: create, invite a newcomer, teams, roles, leave, delete", async ({
  page,
  browser,
  baseURL,
  mailbox,
}) => {
  test.setTimeout(240_000);
  const owner = uniqueUser("owner");
  const organizationName = `Rocket ${owner.username.slice(-6)}`;
  const slug = `rocket-${owner.username
    .slice(-6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")}`;

  // The owner creates the organization: slug suggested from the name, checked live.
  await signUpAndVerify(page, mailbox, owner);
  await expect(switcher(page)).toHaveAccessibleName("Organization: None selected. Switch organization");
  await page.getByRole("link", { name: "New organization" }).click();
  await page.getByLabel("Name", { exact: true }).fill(organizationName);
  await expect(page.getByLabel("Slug", { exact: true })).toHaveValue(slug);
  await expect(page.getByText("✓ This slug is available")).toBeVisible();
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: organizationName })).toBeVisible();
  await expect(switcher(page)).toHaveAccessibleName(`Organization: ${organizationName}. Switch organization`);

  // A person with no account is invited; the link comes from the dev mailbox.
  const newcomer: TestUser = uniqueUser("newcomer");
  await invite(page, newcomer.email, "member");
  const newcomerLink = await invitationLink(mailbox, newcomer.email);

  const newcomerDevice = await newDevice(browser, baseURL);
  const newcomerPage = newcomerDevice.page;
  await newcomerPage.goto(newcomerLink);
  await expect(
    newcomerPage.getByRole("heading", { name: `${owner.name} invited you to join ${organizationName}` }),
  ).toBeVisible();
  await newcomerPage.getByRole("link", { name: "Create an account" }).click();
  await expect(newcomerPage.getByLabel("E-mail", { exact: true })).toHaveValue(newcomer.email);
  await newcomerPage.getByLabel("Name", { exact: true }).fill(newcomer.name);
  await newcomerPage.getByLabel("Password", { exact: true }).fill(newcomer.password);
  await newcomerPage.getByRole("button", { name: "Create account" }).click();
  await expect(newcomerPage.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  const verification = await mailbox.waitFor(newcomer.email, "Verify your e-mail address for Atrium");
  await newcomerPage.goto(extractLink(verification.text));
  // Verified and signed in, the newcomer is back on the invitation and joins.
  await expect(newcomerPage.getByRole("heading", { name: `Join ${organizationName}` })).toBeVisible();
  await newcomerPage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(newcomerPage.getByRole("heading", { name: `Welcome, ${newcomer.name}` })).toBeVisible();
  await expect(switcher(newcomerPage)).toHaveAccessibleName(`Organization: ${organizationName}. Switch organization`);

  // The owner creates a team and adds the newcomer to it.
  await page.reload();
  await openSettingsTab(page, "Teams");
  await page.getByLabel("Team name", { exact: true }).fill("Launch crew");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name: "Launch crew" })).toBeVisible();
  await page.getByLabel("Add a member to Launch crew").selectOption({ label: `${newcomer.name} (${newcomer.email})` });
  await page.getByRole("button", { name: "Add to team" }).last().click();
  await expect(page.getByRole("list", { name: "Members of Launch crew" }).getByText(newcomer.name)).toBeVisible();

  // An existing user is invited as admin, accepts while signed in, and changes the newcomer's role.
  const admin = uniqueUser("admin");
  await invite(page, admin.email, "admin");
  const adminDevice = await newDevice(browser, baseURL);
  const adminPage = adminDevice.page;
  await signUpAndVerify(adminPage, mailbox, admin);
  await adminPage.goto(await invitationLink(mailbox, admin.email));
  await adminPage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(switcher(adminPage)).toHaveAccessibleName(`Organization: ${organizationName}. Switch organization`);
  await adminPage.getByRole("button", { name: /Switch organization$/ }).click();
  await adminPage.getByRole("menuitem", { name: "Organization settings" }).click();
  await openSettingsTab(adminPage, "Members");
  await expect(adminPage.getByRole("cell", { name: /Launch crew/ })).toBeVisible();
  // An admin is not offered the owner role, nor any control over the owner's row.
  const newcomerRole = adminPage.getByLabel(`Role of ${newcomer.name}`);
  await expect(newcomerRole.locator("option")).toHaveText(["Admin", "Member"]);
  await expect(adminPage.getByLabel(`Role of ${owner.name}`)).toHaveCount(0);
  await newcomerRole.selectOption("admin");
  await adminPage.getByRole("dialog").getByRole("button", { name: "Make them Admin" }).click();
  await expect(adminPage.getByRole("status").filter({ hasText: `${newcomer.name} is now an admin` })).toBeVisible();
  await page.reload();
  await openSettingsTab(page, "Members");
  await expect(page.getByLabel(`Role of ${newcomer.name}`)).toHaveValue("admin");

  // The newcomer leaves; their switcher no longer shows the organization.
  await newcomerPage.getByRole("button", { name: /Switch organization$/ }).click();
  await newcomerPage.getByRole("menuitem", { name: "Organization settings" }).click();
  await newcomerPage.getByRole("button", { name: "Leave organization" }).click();
  await newcomerPage.getByRole("dialog").getByRole("button", { name: "Leave" }).click();
  await expect(newcomerPage.getByRole("heading", { name: `Welcome, ${newcomer.name}` })).toBeVisible();
  await expect(switcher(newcomerPage)).toHaveAccessibleName("Organization: None selected. Switch organization");
  await newcomerPage.getByRole("button", { name: /Switch organization$/ }).click();
  await expect(newcomerPage.getByRole("menuitemradio", { name: organizationName })).toHaveCount(0);
  await newcomerPage.keyboard.press("Escape");

  // The owner deletes the organization after typing its slug.
  await openSettingsTab(page, "Danger zone");
  await page.getByRole("button", { name: "Delete organization…" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Delete organization" }).click();
  await expect(dialog.getByText(`Type ${slug} to confirm`)).toBeVisible();
  await dialog.getByLabel(`Type “${slug}”`).fill(slug);
  await dialog.getByRole("button", { name: "Delete organization" }).click();
  await expect(page.getByRole("heading", { name: `Welcome, ${owner.name}` })).toBeVisible();
  await expect(switcher(page)).toHaveAccessibleName("Organization: None selected. Switch organization");
  await expect(page.getByText("No organizations yet")).toBeVisible();

  await newcomerDevice.context.close();
  await adminDevice.context.close();
});

test("an invitation link that was canceled says so", async ({ page, browser, baseURL, mailbox }) => {
  const owner = uniqueUser("owner");
  await signUpAndVerify(page, mailbox, owner);
  await page.goto("/organizations/new");
  await page.getByLabel("Name", { exact: true }).fill(`Canceled ${owner.username.slice(-6)}`);
  await expect(page.getByText("✓ This slug is available")).toBeVisible();
  await page.getByRole("button", { name: "Create organization" }).click();
  const invitee = uniqueUser("invitee");
  await invite(page, invitee.email, "member");
  const link = await invitationLink(mailbox, invitee.email);
  await page.getByRole("button", { name: `Cancel invitation to ${invitee.email}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel invitation" }).click();
  await expect(page.getByText("No pending invitations")).toBeVisible();

  const device = await newDevice(browser, baseURL);
  await device.page.goto(link);
  await expect(device.page.getByRole("heading", { name: "This invitation was canceled" })).toBeVisible();
  await device.context.close();
});

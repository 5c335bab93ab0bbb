import type { Page } from "@playwright/test";
import {
  expect,
  invitationLink,
  invite,
  newDevice,
  openSettingsTab,
  signIn,
  signOut,
  signUpAndVerify,
  test,
  uniqueUser,
  type TestUser,
} from "./fixtures";

/**
 * The organization screens without dead ends: only what a role may do is offered (with the reason where it is
 * not), role changes are confirmed, links that lead nowhere still lead home, the switcher agrees with the page,
 * the default team is explained, and every page has its own title.
 */

const switcher = (page: Page) => page.getByRole("button", { name: /Switch organization$/ });

/** Creates an organization from the home page and lands on its settings; returns its id. */
async function createOrganization(page: Page, name: string): Promise<string> {
  await page.goto("/organizations/new");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await expect(page.getByText("✓ This slug is available")).toBeVisible();
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  return /\/organizations\/([^/]+)\/settings/.exec(page.url())![1]!;
}

test("offers follow the role: sole owner, default team, role changes, a member's danger zone, the switcher after sign-in", async ({
  page,
  browser,
  baseURL,
  mailbox,
}) => {
  test.setTimeout(240_000);
  const owner = uniqueUser("owner");
  const name = `Ux ${owner.username.slice(-6)}`;
  await signUpAndVerify(page, mailbox, owner);
  const organizationId = await createOrganization(page, name);
  await expect(page).toHaveTitle(`General · ${name} · Atrium`);
  await expect(switcher(page)).toHaveAccessibleName(`Organization: ${name}. Switch organization`);

  // The sole owner is told why they cannot leave and what to do, instead of a Leave button that fails.
  await expect(page.getByText(`You are the only owner of ${name}, so you cannot leave it yet.`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Leave organization" })).toHaveCount(0);
  await expect(page.getByText("Make another member an owner on the Members page first, then leave.")).toBeVisible();

  // The default team is shown and explained, cannot be removed as the last team, and follows a rename.
  await openSettingsTab(page, "Teams");
  await expect(page).toHaveTitle(`Teams · ${name} · Atrium`);
  await expect(page.getByRole("heading", { name, exact: true }).last()).toBeVisible();
  await expect(page.getByText("Default team", { exact: true })).toBeVisible();
  await expect(
    page.getByText("An organization keeps at least one team, so its last team cannot be removed."),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: `Remove team ${name}` })).toHaveCount(0);
  await openSettingsTab(page, "General");
  const renamed = `${name} Renamed`;
  await page.getByLabel("Name", { exact: true }).fill(renamed);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Organization saved" })).toBeVisible();
  await openSettingsTab(page, "Teams");
  await expect(page.getByRole("heading", { name: renamed, exact: true }).last()).toBeVisible();
  await expect(page.getByText("Default team", { exact: true })).toBeVisible();

  // A member joins.
  const member: TestUser = uniqueUser("member");
  await invite(page, member.email, "member");
  const link = await invitationLink(mailbox, member.email);
  const memberDevice = await newDevice(browser, baseURL);
  const memberPage = memberDevice.page;
  await signUpAndVerify(memberPage, mailbox, member);
  await memberPage.goto(link);
  await expect(memberPage).toHaveTitle(`Invitation · ${renamed} · Atrium`);
  await memberPage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(memberPage.getByRole("heading", { name: `Welcome, ${member.name}` })).toBeVisible();

  // A member opening the danger zone by its address is told who can delete; no tab, no button.
  await memberPage.goto(`/organizations/${organizationId}/settings/danger`);
  await expect(memberPage.getByText("Only an owner can delete this organization")).toBeVisible();
  await expect(memberPage.getByRole("button", { name: /Delete organization/ })).toHaveCount(0);
  await expect(
    memberPage.getByRole("navigation", { name: "Organization settings" }).getByRole("link", { name: "Danger zone" }),
  ).toHaveCount(0);
  await expect(memberPage).toHaveTitle(`Danger zone · ${renamed} · Atrium`);

  // After a fresh sign-in (no active organization yet), the switcher names the organization whose page is open.
  await signOut(memberPage, member.name);
  await signIn(memberPage, member.email, member.password, member.name);
  await expect(switcher(memberPage)).toHaveAccessibleName("Organization: None selected. Switch organization");
  await memberPage.goto(`/organizations/${organizationId}/settings/members`);
  await expect(memberPage.getByRole("heading", { name: renamed })).toBeVisible();
  await expect(switcher(memberPage)).toHaveAccessibleName(`Organization: ${renamed}. Switch organization`);
  await expect(switcher(memberPage)).toContainText(renamed);

  // Role changes: the options use the badges' words, and a change asks first, saying what changes.
  await page.reload();
  await openSettingsTab(page, "Members");
  await expect(page).toHaveTitle(`Members · ${renamed} · Atrium`);
  const role = page.getByLabel(`Role of ${member.name}`);
  await expect(role.locator("option")).toHaveText(["Owner", "Admin", "Member"]);
  await expect(
    page.getByRole("row").filter({ hasText: owner.email }).getByText("Owner", { exact: true }),
  ).toBeVisible();
  await role.selectOption("owner");
  const dialog = page.getByRole("dialog", { name: `Make ${member.name} an Owner?` });
  await expect(dialog).toContainText(
    `${member.name} will be an Owner of ${renamed}: every permission, including deleting the organization and changing or removing other owners. They will be able to change your role and remove you too.`,
  );
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(role).toHaveValue("member");
  await role.selectOption("admin");
  await page
    .getByRole("dialog", { name: `Make ${member.name} an Admin?` })
    .getByRole("button", { name: "Make them Admin" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: `${member.name} is now an admin` })).toBeVisible();
  await expect(role).toHaveValue("admin");

  // The search finds a member by e-mail, case aside, says when nobody matches, and shows a rename at once.
  const search = page.getByLabel("Search members");
  await search.fill(member.email.toUpperCase());
  await expect(page.getByText(`1 member matches “${member.email.toUpperCase()}”.`)).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: owner.email })).toHaveCount(0);
  await search.fill("nobody-by-this-name");
  await expect(page.getByText("No members match")).toBeVisible();
  const update = await memberPage.request.post("/api/auth/update-user", {
    data: { name: "Grey Heron" },
    headers: { origin: new URL(memberPage.url()).origin },
  });
  expect(update.status()).toBe(200);
  await search.fill("grey heron");
  await expect(page.getByRole("row").filter({ hasText: "Grey Heron" })).toHaveCount(1);

  await memberDevice.context.close();
});

test("links that lead nowhere lead home; an invitation for someone else offers Sign out; the signed-out invitation names who invites", async ({
  page,
  browser,
  baseURL,
  mailbox,
}) => {
  test.setTimeout(240_000);
  const owner = uniqueUser("inviter");
  const name = `Links ${owner.username.slice(-6)}`;
  await signUpAndVerify(page, mailbox, owner);
  await createOrganization(page, name);
  const invitee = uniqueUser("invitee");
  await invite(page, invitee.email, "member");
  const link = await invitationLink(mailbox, invitee.email);

  const other = uniqueUser("other");
  const device = await newDevice(browser, baseURL);
  const otherPage = device.page;
  await signUpAndVerify(otherPage, mailbox, other);
  await expect(otherPage).toHaveTitle("Home · Atrium");

  // An unknown (or foreign) organization.
  await otherPage.goto("/organizations/no-such-organization/settings/members");
  await expect(otherPage.getByRole("heading", { name: "Organization not found" })).toBeVisible();
  await expect(
    otherPage.getByText("It does not exist, it was deleted, or you are not a member of it.", { exact: false }),
  ).toBeVisible();
  await expect(otherPage).toHaveTitle("Organization not found · Atrium");
  await otherPage.getByRole("link", { name: "Go to your organizations" }).click();
  await expect(otherPage.getByRole("heading", { name: `Welcome, ${other.name}` })).toBeVisible();

  // An unknown invitation and an unknown page.
  await otherPage.goto("/invitations/no-such-invitation");
  await expect(otherPage.getByRole("heading", { name: "Invitation not found" })).toBeVisible();
  await expect(otherPage).toHaveTitle("Invitation not found · Atrium");
  await expect(otherPage.getByRole("link", { name: "Go home" })).toBeVisible();
  await otherPage.goto("/no-such-page");
  await expect(otherPage.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(otherPage).toHaveTitle("Page not found · Atrium");

  // The account's pages have their titles too.
  await otherPage.goto("/account");
  await expect(otherPage).toHaveTitle("Profile · Account · Atrium");
  await otherPage.goto("/account/sessions");
  await expect(otherPage).toHaveTitle("Sessions · Account · Atrium");

  // Someone else's invitation: signing out leads to the signed-out invitation, which names inviter and organization.
  await otherPage.goto(link);
  await expect(otherPage.getByRole("heading", { name: "This invitation is for someone else" })).toBeVisible();
  await expect(
    otherPage.getByText(
      `${owner.name} invited another e-mail address to join ${name}. You are signed in as ${other.email}.`,
    ),
  ).toBeVisible();
  await otherPage.getByRole("button", { name: "Sign out" }).click();
  await expect(otherPage.getByRole("heading", { name: `${owner.name} invited you to join ${name}` })).toBeVisible();
  await expect(otherPage.getByRole("link", { name: "Sign in to continue" })).toBeVisible();
  await expect(otherPage.getByRole("link", { name: "Create an account" })).toBeVisible();
  await expect(otherPage).toHaveTitle(`Invitation · ${name} · Atrium`);

  await otherPage.goto("/sign-in");
  await expect(otherPage).toHaveTitle("Sign in · Atrium");
  await otherPage.goto("/sign-up");
  await expect(otherPage).toHaveTitle("Create your account · Atrium");
  await device.context.close();
});

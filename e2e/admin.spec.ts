import {
  expect,
  invite,
  invitationLink,
  newDevice,
  openSettingsTab,
  signIn,
  signUpAndVerify,
  test,
  uniqueUser,
} from "./fixtures";

// global-setup.ts lists this address in ADMIN_EMAILS, so whoever signs up with it is a platform admin.
const PLATFORM_ADMIN_EMAIL = "platform-admin@example.test";

test("a platform admin finds a user with a filter, bans and unbans them, impersonates another, and sees it all in the audit log", async ({
  page,
  browser,
  baseURL,
  mailbox,
}) => {
  test.setTimeout(240_000);
  const admin = { ...uniqueUser("admin"), email: PLATFORM_ADMIN_EMAIL };
  const person = uniqueUser("person");
  const other = uniqueUser("other");
  const device = await newDevice(browser, baseURL);
  await signUpAndVerify(device.page, mailbox, person);
  const otherDevice = await newDevice(browser, baseURL);
  await signUpAndVerify(otherDevice.page, mailbox, other);
  await otherDevice.context.close();

  await signUpAndVerify(page, mailbox, admin);
  await page.getByRole("button", { name: `Account menu for ${admin.name}` }).click();
  await page.getByRole("menuitem", { name: "Admin console" }).click();
  await expect(page.getByRole("heading", { name: "Users", exact: true })).toBeVisible();

  // Found by part of the username with a filter, and the filters live in the address.
  await page.getByLabel("Search users").fill(person.username.slice(-8));
  await page.getByLabel("Role", { exact: true }).selectOption("user");
  await expect(page).toHaveURL(/role=user/);
  const users = page.getByRole("table", { name: "Users" });
  await expect(users.getByRole("row")).toHaveCount(2);
  await users.getByRole("link", { name: person.name }).click();
  await expect(page.getByRole("heading", { name: person.name, level: 1 })).toBeVisible();

  // A ban ends the person's session at once and refuses their sign-in, saying until when.
  await page.getByRole("button", { name: "Ban", exact: true }).click();
  const banDialog = page.getByRole("dialog", { name: `Ban ${person.name}?` });
  await banDialog.getByLabel("Reason").fill("Spam in every organization");
  await banDialog.getByRole("radio", { name: /1 day/ }).check();
  await banDialog.getByRole("button", { name: `Ban ${person.name}` }).click();
  await expect(page.getByRole("button", { name: "Unban" })).toBeVisible();
  await device.page.reload();
  await expect(device.page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
  await device.page.goto("/sign-in");
  await device.page.getByLabel("E-mail or username", { exact: true }).fill(person.email);
  await device.page.getByLabel("Password", { exact: true }).fill(person.password);
  await device.page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(device.page.getByRole("alert")).toContainText("This account is banned until");
  await expect(device.page).toHaveURL(/\/sign-in/);

  // Lifted, the person signs in again.
  await page.getByRole("button", { name: "Unban" }).click();
  await page
    .getByRole("dialog", { name: `Unban ${person.name}?` })
    .getByRole("button", { name: "Unban" })
    .click();
  await expect(page.getByRole("button", { name: "Ban", exact: true })).toBeVisible();
  await signIn(device.page, person.email, person.password, person.name);
  await device.context.close();

  // Impersonating another user asks why, shows the banner on every page, and closes the console meanwhile.
  await page.getByRole("link", { name: "All users" }).click();
  await page.getByLabel("Search users").fill(other.email);
  await expect(page).toHaveURL(/q=other/);
  await expect(users.getByRole("row")).toHaveCount(2);
  await users.getByRole("link", { name: other.name }).click();
  await page.getByRole("button", { name: "Impersonate", exact: true }).click();
  const impersonateDialog = page.getByRole("dialog", { name: `Impersonate ${other.name}?` });
  await impersonateDialog.getByLabel("Reason").fill("Support ticket 4711");
  await impersonateDialog.getByRole("button", { name: `Impersonate ${other.name}` }).click();
  await expect(page.getByRole("heading", { name: `Welcome, ${other.name}` })).toBeVisible();
  await expect(page.getByText(`You are browsing as ${other.name}`)).toBeVisible();
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: `Welcome, ${other.name}` })).toBeVisible();
  await expect(page.getByText(`You are browsing as ${other.name}`)).toBeVisible();
  expect((await page.request.get("/api/admin/users")).status()).toBe(403);
  await page.getByRole("button", { name: "Stop impersonating" }).click();
  await expect(page.getByRole("heading", { name: "Users", exact: true })).toBeVisible();
  await expect(page.getByText(/You are browsing as/)).toHaveCount(0);

  // Every one of those changes is in the audit log, with the reasons given.
  await page.getByRole("navigation", { name: "Admin console" }).getByRole("link", { name: "Audit log" }).click();
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(log.getByRole("row").filter({ hasText: `Banned ${person.email}` })).toContainText(
    "Spam in every organization",
  );
  await expect(log.getByRole("row").filter({ hasText: `Lifted the ban on ${person.email}` })).toBeVisible();
  await expect(log.getByRole("row").filter({ hasText: `Started impersonating ${other.email}` })).toContainText(
    "Support ticket 4711",
  );
  await expect(log.getByRole("row").filter({ hasText: `Stopped impersonating ${other.email}` })).toBeVisible();
});

test("an organization owner sees their organization's audit log and exports it; a member is not offered it", async ({
  page,
  browser,
  baseURL,
  mailbox,
}) => {
  test.setTimeout(180_000);
  const owner = uniqueUser("owner");
  const member = uniqueUser("member");
  const organizationName = `Audited ${owner.username.slice(-6)}`;
  await signUpAndVerify(page, mailbox, owner);
  await page.goto("/organizations/new");
  await page.getByLabel("Name", { exact: true }).fill(organizationName);
  await expect(page.getByText("✓ This slug is available")).toBeVisible();
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: organizationName })).toBeVisible();
  await invite(page, member.email, "member");

  const memberDevice = await newDevice(browser, baseURL);
  await signUpAndVerify(memberDevice.page, mailbox, member);
  await memberDevice.page.goto(await invitationLink(mailbox, member.email));
  await memberDevice.page.getByRole("button", { name: "Accept invitation" }).click();
  // Accepting leads home: the member opens the organization's settings from there, and finds no audit log tab.
  await expect(
    memberDevice.page.getByRole("status").filter({ hasText: `Welcome to ${organizationName}` }),
  ).toBeVisible();
  await memberDevice.page.getByRole("link", { name: "Settings", exact: true }).click();
  await expect(memberDevice.page.getByRole("heading", { name: organizationName })).toBeVisible();
  const memberTabs = memberDevice.page.getByRole("navigation", { name: "Organization settings" });
  await expect(memberTabs.getByRole("link", { name: "Members" })).toBeVisible();
  await expect(memberTabs.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await memberDevice.context.close();

  await openSettingsTab(page, "Audit log");
  const log = page.getByRole("table", { name: "Audit log" });
  await expect(log.getByRole("row").filter({ hasText: `Created the organization ${organizationName}` })).toBeVisible();
  await expect(log.getByRole("row").filter({ hasText: `Sent invitation to ${member.email}` })).toBeVisible();
  await expect(log.getByRole("row").filter({ hasText: `Added ${member.email}` })).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of csv) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  expect(text.split("\r\n")[0]).toBe(
    "time,action,actor_id,actor,impersonator_id,impersonator,target_type,target_id,target," +
      "organization_id,organization,ip_address,user_agent,reason,details,actor_type",
  );
  expect(text).toContain("organization.created");
  expect(text).toContain("invitation.sent");
  expect(text).toContain(`member.added`);
});

test("the admin console is not offered to, nor reachable by, an ordinary user", async ({ page, mailbox, user }) => {
  await signUpAndVerify(page, mailbox, user);
  await page.getByRole("button", { name: `Account menu for ${user.name}` }).click();
  await expect(page.getByRole("menuitem", { name: "Admin console" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await page.goto("/admin");
  await expect(page.getByRole("heading", { name: `Welcome, ${user.name}` })).toBeVisible();
  expect((await page.request.get("/api/auth/admin/list-users")).status()).toBe(403);
  expect((await page.request.get("/api/admin/users")).status()).toBe(403);
});

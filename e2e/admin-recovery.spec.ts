import { expect, newDevice, signUpAndVerify, test, uniqueUser } from "./fixtures";

// global-setup.ts lists this address in ADMIN_EMAILS, so whoever signs up with it is a platform admin.
const RECOVERY_ADMIN_EMAIL = "recovery-admin@example.test";

test("a platform admin gives an organization a new owner by keyboard, with a reason kept in its audit log", async ({
  page,
  browser,
  baseURL,
  mailbox,
}) => {
  test.setTimeout(180_000);
  const owner = uniqueUser("owner");
  const heir = uniqueUser("heir");
  const organizationName = `Recovered ${owner.username.slice(-6)}`;
  const ownerDevice = await newDevice(browser, baseURL);
  await signUpAndVerify(ownerDevice.page, mailbox, owner);
  await ownerDevice.page.goto("/organizations/new");
  await ownerDevice.page.getByLabel("Name", { exact: true }).fill(organizationName);
  await ownerDevice.page.getByRole("button", { name: "Create organization" }).click();
  await expect(ownerDevice.page.getByRole("heading", { name: organizationName })).toBeVisible();
  await ownerDevice.context.close();
  const heirDevice = await newDevice(browser, baseURL);
  await signUpAndVerify(heirDevice.page, mailbox, heir);
  await heirDevice.context.close();

  await signUpAndVerify(page, mailbox, { ...uniqueUser("admin"), email: RECOVERY_ADMIN_EMAIL });
  await page.goto("/admin/organizations");
  await page.getByRole("link", { name: organizationName }).click();
  await expect(page.getByRole("heading", { name: organizationName })).toBeVisible();

  await page.getByRole("button", { name: "Give a new owner" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Give ${organizationName} a new owner` });
  await expect(dialog.getByLabel("New owner's e-mail")).toBeFocused();
  await page.keyboard.type(heir.email);
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Reason")).toBeFocused();
  await page.keyboard.type("The owner left the company; ticket 4711");
  await dialog.getByRole("button", { name: "Make owner" }).click();

  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `${heir.email} is now an owner` })).toBeVisible();
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByRole("row").filter({ hasText: heir.email })).toContainText("owner");
  await expect(page.getByText(`Made ${heir.email} an owner of the organization`)).toBeVisible();
  await expect(page.getByText("The owner left the company; ticket 4711")).toBeVisible();
});

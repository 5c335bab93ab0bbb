import type { APIRequestContext } from "@playwright/test";
import { axeViolations } from "./a11y";
import {
  createOrganization,
  expect,
  invitationLink,
  invite,
  newDevice,
  openSettingsTab,
  screenshotPage,
  signUpAndVerify,
  test,
  uniqueUser,
} from "./fixtures";

/** A call with the key alone: `request` carries no cookie of the signed-in page. */
async function withKey(request: APIRequestContext, key: string, path: string) {
  const response = await request.get(path, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
}

test("an owner creates a key with scopes, copies it once, calls the API with it and revokes it", async ({
  page,
  context,
  request,
  mailbox,
}) => {
  // 50 to 72 s alone on two cores; with the machine's load at 15, the default two minutes ran out.
  test.setTimeout(180_000);
  const owner = uniqueUser("keyowner");
  await signUpAndVerify(page, mailbox, owner);
  const organizationId = await createOrganization(page, `Keys ${owner.username.slice(-6)}`);
  await openSettingsTab(page, "API keys");
  await expect(page.getByRole("heading", { name: "Create an API key" })).toBeVisible();
  await expect(page.getByText("No API keys yet. Create one above.")).toBeVisible();

  // The form says what is missing before anything is sent.
  await page.getByRole("button", { name: "Create API key" }).click();
  await expect(page.getByText("Enter a name")).toBeVisible();
  await expect(page.getByText("Choose at least one scope")).toBeVisible();

  // With the keyboard alone: the name, one scope ticked with Space, the expiry, then the button.
  const name = page.getByLabel("Name", { exact: true });
  await name.focus();
  await page.keyboard.type("CI deploys");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("checkbox", { name: /^members:read/ })).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByRole("checkbox", { name: /^members:read/ })).toBeChecked();
  await page.getByLabel("Expires", { exact: true }).selectOption("90");
  await page.getByRole("button", { name: "Create API key" }).focus();
  await page.keyboard.press("Enter");

  // The secret is shown once, in a dialog, with a Copy button.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const dialog = page.getByRole("dialog", { name: "Copy your new API key" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("This is the only time the key is shown.", { exact: false })).toBeVisible();
  const field = dialog.getByLabel("API key", { exact: true });
  const key = await field.inputValue();
  expect(key).toMatch(/^atr_[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByText("CI deploys: members:read")).toBeVisible();
  expect(await axeViolations(page), "the page with the new key's dialog").toBe("");
  await dialog.getByRole("button", { name: "Copy API key" }).click();
  await expect(page.getByRole("status").filter({ hasText: "API key copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Create API key" })).toBeFocused();

  // Closed, it is never shown again: the list has its first characters only, on this page and after a reload.
  const keys = page.getByRole("list", { name: "API keys" });
  const prefix = key.slice(0, 10);
  await expect(keys.getByText("CI deploys")).toBeVisible();
  await expect(keys.getByText(`${prefix}…`, { exact: true })).toBeVisible();
  await expect(keys.getByText(/Expires .* · Never used/)).toBeVisible();
  expect(await page.content()).not.toContain(key);
  await page.reload();
  await expect(keys.getByText(`${prefix}…`, { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain(key);

  // The key reads the members, which its scope allows, and nothing else.
  const members = await withKey(request, key, `/api/organizations/${organizationId}/members`);
  expect(members.status).toBe(200);
  expect((members.body.members as Array<{ user: { email: string } }>).map((member) => member.user.email)).toEqual([
    owner.email,
  ]);
  expect(await withKey(request, key, `/api/organizations/${organizationId}/teams`)).toEqual({
    status: 403,
    body: {
      code: "API_KEY_SCOPE_MISSING",
      message: "This API key does not have the scope this call needs",
      details: { scope: "teams:read" },
      requestId: expect.any(String),
    },
  });
  expect(await withKey(request, key, `/api/organizations/${organizationId}/api-keys`)).toEqual({
    status: 403,
    body: {
      code: "API_KEY_NOT_ACCEPTED",
      message: "This call is only for signed-in people, not for API keys",
      requestId: expect.any(String),
    },
  });
  await page.reload();
  await expect(keys.getByText(/· Last used just now$/)).toBeVisible();
  expect(await axeViolations(page), "the page listing the key").toBe("");
  await screenshotPage(page, "api-keys-listed");

  // Revoked (from the keyboard too), it is refused from then on, the members list included.
  await page.getByRole("button", { name: "Revoke CI deploys" }).focus();
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("dialog", { name: "Revoke CI deploys?" });
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("status").filter({ hasText: "API key CI deploys revoked" })).toBeVisible();
  await expect(page.getByText("No API keys yet. Create one above.")).toBeVisible();
  // The revoked key's row is gone with its button: focus goes to the list's title, not to the top of the page.
  await expect(page.getByRole("heading", { name: "API keys", exact: true })).toBeFocused();
  await expect
    .poll(async () => (await withKey(request, key, `/api/organizations/${organizationId}/members`)).status, {
      timeout: 5_000,
    })
    .toBe(401);
  expect(await withKey(request, key, `/api/organizations/${organizationId}/members`)).toEqual({
    status: 401,
    body: {
      code: "API_KEY_INVALID",
      message: "The API key is invalid, expired or revoked",
      requestId: expect.any(String),
    },
  });
  await screenshotPage(page, "api-keys-revoked");
});

test("a member is not offered the API keys page, and the API refuses them", async ({
  page,
  browser,
  baseURL,
  mailbox,
}) => {
  // Two people, a sign-up and an invitation each way: 46 to 72 s alone on two cores.
  test.setTimeout(180_000);
  const owner = uniqueUser("keyadmin");
  await signUpAndVerify(page, mailbox, owner);
  const organizationName = `Members ${owner.username.slice(-6)}`;
  const organizationId = await createOrganization(page, organizationName);
  const member = uniqueUser("keymember");
  await invite(page, member.email, "member");

  const device = await newDevice(browser, baseURL);
  await signUpAndVerify(device.page, mailbox, member);
  await device.page.goto(await invitationLink(mailbox, member.email));
  await device.page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(device.page.getByRole("heading", { name: `Welcome, ${member.name}` })).toBeVisible();
  await device.page.goto(`/organizations/${organizationId}/settings`);
  const tabs = device.page.getByRole("navigation", { name: "Organization settings" });
  await expect(tabs.getByRole("link", { name: "Members" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "API keys" })).toHaveCount(0);

  // By its address, the page says who may; the API answers the same.
  await device.page.goto(`/organizations/${organizationId}/settings/api-keys`);
  await expect(device.page.getByText("Only owners and admins can manage API keys.")).toBeVisible();
  await expect(device.page.getByRole("button", { name: "Create API key" })).toHaveCount(0);
  const refused = await device.page.request.get(`/api/organizations/${organizationId}/api-keys`);
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({
    code: "API_KEY_ADMIN_REQUIRED",
    message: "Only the organization's owners and admins can manage its API keys",
    requestId: expect.any(String),
  });
  await screenshotPage(device.page, "api-keys-member");
  await device.context.close();
});

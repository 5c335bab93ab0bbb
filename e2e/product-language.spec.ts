import type { Page } from "@playwright/test";
import {
  expect,
  invitationLink,
  invite,
  newDevice,
  openSettingsTab,
  signUpAndVerify,
  test,
  uniqueUser,
} from "./fixtures";

/** Creates an organization from the home page and waits for its settings. */
async function createOrganization(page: Page, name: string): Promise<void> {
  await page.goto("/organizations/new");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await expect(page.getByText("✓ This slug is available")).toBeVisible();
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
}

test("the server's refusals read as sentences: a taken slug, an invitation already pending, the only owner leaving", async ({
  page,
  mailbox,
  user,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  await signUpAndVerify(page, mailbox, user);
  const suffix = user.username
    .slice(-6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  const first = `Alpha ${suffix}`;
  const second = `Beta ${suffix}`;
  await createOrganization(page, first);
  await createOrganization(page, second);

  // A slug another organization holds: the live check is told "free" so the server's own refusal is what shows.
  await page.route("**/api/organizations/slug-availability?*", (route) =>
    route.fulfill({ status: 200, json: { available: true } }),
  );
  await openSettingsTab(page, "General");
  await page.getByLabel("Slug", { exact: true }).fill(`alpha-${suffix}`);
  const refused = page.waitForResponse((response) => response.url().includes("/api/auth/organization/update"));
  await page.getByRole("button", { name: "Save changes" }).click();
  expect((await refused).status()).toBe(400);
  await expect(page.getByText("This slug is already used by another organization. Choose another one.")).toBeVisible();
  await expect(page.getByText("slug is taken")).toHaveCount(0);
  await page.unroute("**/api/organizations/slug-availability?*");

  // The same person invited twice.
  const invitee = uniqueUser("invitee");
  await invite(page, invitee.email, "member");
  await page.getByLabel("E-mail", { exact: true }).fill(invitee.email);
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(
    page.getByText("This person already has a pending invitation. Resend or cancel it from the invitations list."),
  ).toBeVisible();
  await expect(page.getByText("User is already invited to this organization")).toHaveCount(0);

  // The only owner tries to leave. The page offers Leave only while there is another owner, so the refusal is met
  // on a page that went stale: a second owner leaves after the page loaded.
  const coOwner = uniqueUser("coowner");
  await invite(page, coOwner.email, "admin");
  const link = await invitationLink(mailbox, coOwner.email);
  const coOwnerDevice = await newDevice(browser, baseURL);
  await signUpAndVerify(coOwnerDevice.page, mailbox, coOwner);
  await coOwnerDevice.page.goto(link);
  await coOwnerDevice.page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(coOwnerDevice.page.getByRole("heading", { name: `Welcome, ${coOwner.name}` })).toBeVisible();
  await openSettingsTab(page, "Members");
  await page.getByLabel(`Role of ${coOwner.name}`).selectOption("owner");
  await page
    .getByRole("dialog", { name: `Make ${coOwner.name} an Owner?` })
    .getByRole("button", { name: "Make them Owner" })
    .click();
  await expect(page.getByLabel(`Role of ${coOwner.name}`)).toHaveValue("owner");
  await expect(page.getByRole("status").filter({ hasText: `${coOwner.name} is now` })).toBeVisible();
  await openSettingsTab(page, "General");
  const leaveButton = page.getByRole("button", { name: "Leave organization" });
  await expect(leaveButton).toBeVisible();
  const organizationId = /\/organizations\/([^/]+)\//.exec(page.url())![1];
  const left = await coOwnerDevice.page.request.post("/api/auth/organization/leave", {
    data: { organizationId },
    headers: { origin: baseURL! },
  });
  expect(left.status()).toBe(200);
  await coOwnerDevice.context.close();
  await leaveButton.click();
  await page.getByRole("dialog").getByRole("button", { name: "Leave" }).click();
  await expect(
    page.getByText(
      "You are the only owner, so you cannot leave. Make another member an owner first, or delete the organization.",
    ),
  ).toBeVisible();
  await expect(page.getByText("you cannot leave the organization as the only owner")).toHaveCount(0);
});

test("a rate-limited sign-in says how many seconds to wait", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("E-mail or username", { exact: true }).fill("nobody_here");
  await page.getByLabel("Password", { exact: true }).fill("not-the-password-1");
  const signIn = async () => {
    const answered = page.waitForResponse((response) => response.url().includes("/api/auth/sign-in/"));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    return (await answered).status();
  };
  // Ten attempts a minute per address (server/auth/rate-limit.ts); this test's page has its own address.
  for (let attempt = 0; attempt < 10; attempt += 1) expect(await signIn()).toBe(401);
  await expect(page.getByRole("alert")).toHaveText("That username or password is not right.");
  expect(await signIn()).toBe(429);
  await expect(page.getByRole("alert")).toHaveText(/^Too many attempts\. Try again in ([1-9]|[1-5]\d|60) seconds?\.$/);
});

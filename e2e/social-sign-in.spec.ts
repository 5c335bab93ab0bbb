import type { Page } from "@playwright/test";
import {
  expect,
  extractLink,
  invitationLink,
  invite,
  newDevice,
  signOut,
  signUpAndVerify,
  test,
  uniqueUser,
  type TestUser,
} from "./fixtures";

const DEV_PROVIDER = "Dev identity provider";

/** On the development provider's login page: makes up `person` (e-mail verified) and continues as them. */
async function continueAsNewIdentity(page: Page, person: Pick<TestUser, "name" | "email">) {
  await expect(page.getByRole("heading", { name: "Sign in to Atrium" })).toBeVisible();
  await expect(page.getByRole("note")).toContainText("For development only.");
  await page.getByLabel("Name", { exact: true }).fill(person.name);
  await page.getByLabel("E-mail", { exact: true }).fill(person.email);
  await page.getByRole("button", { name: "Continue as this identity" }).click();
}

test("sign up and back in through the dev identity provider, then disconnect and reconnect it in account settings", async ({
  page,
  mailbox,
}) => {
  const person = uniqueUser("social");

  await page.goto("/sign-up");
  await page.getByRole("button", { name: `Continue with ${DEV_PROVIDER}` }).click();
  await continueAsNewIdentity(page, person);
  await expect(page.getByRole("heading", { name: `Welcome, ${person.name}` })).toBeVisible();

  // Back in the same way: the provider now lists the identity.
  await signOut(page, person.name);
  await page.getByRole("button", { name: `Continue with ${DEV_PROVIDER}` }).click();
  await page.getByRole("button", { name: new RegExp(person.email) }).click();
  await expect(page.getByRole("heading", { name: `Welcome, ${person.name}` })).toBeVisible();

  // The provider is the only way in, so it cannot be disconnected until a password is set by mail.
  await page.goto("/account/sign-in-methods");
  await expect(page.getByText(`As ${person.email}, since`)).toBeVisible();
  await expect(page.getByRole("button", { name: `Disconnect ${DEV_PROVIDER}` })).toHaveAttribute(
    "aria-disabled",
    "true",
  );
  await page.getByRole("button", { name: "E-mail me a link to set a password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Check your inbox" })).toBeVisible();
  const mail = await mailbox.waitFor(person.email, "Set a password for Atrium");
  await page.goto(extractLink(mail.text));
  await expect(page.getByRole("heading", { name: "Set a password" })).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(person.password);
  await page.getByLabel("Confirm password", { exact: true }).fill(person.password);
  await page.getByRole("button", { name: "Set password" }).click();
  // Still signed in, back on the sign-in methods, where the password now lets the provider go.
  await expect(page).toHaveURL(/\/account\/sign-in-methods$/);
  await expect(page.getByRole("status").filter({ hasText: "Your password is set." })).toBeVisible();
  await page.getByRole("button", { name: `Disconnect ${DEV_PROVIDER}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disconnect" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${DEV_PROVIDER} disconnected` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Connect ${DEV_PROVIDER}` })).toBeVisible();

  await page.getByRole("button", { name: `Connect ${DEV_PROVIDER}` }).click();
  await page.getByRole("button", { name: new RegExp(person.email) }).click();
  await expect(page).toHaveURL(/\/account\/sign-in-methods\?connected=dev$/);
  await expect(page.getByRole("status").filter({ hasText: `${DEV_PROVIDER} is connected` })).toBeVisible();
  await expect(page.getByText(`As ${person.email}, since`)).toBeVisible();
});

test("an invitation offers the providers and brings the newcomer back to accept it", async ({
  page,
  browser,
  baseURL,
  mailbox,
}) => {
  const owner = uniqueUser("owner");
  await signUpAndVerify(page, mailbox, owner);
  const created = await page.request.post("/api/auth/organization/create", {
    data: {
      name: `Social ${owner.username.slice(-6)}`,
      slug: `social-${owner.username
        .slice(-6)
        .toLowerCase()
        .replace(/[^a-z0-9]/g, "")}`,
    },
    headers: { origin: baseURL! },
  });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/organizations/${id}/settings`);
  const newcomer = uniqueUser("newcomer");
  await invite(page, newcomer.email, "member");

  const device = await newDevice(browser, baseURL);
  await device.page.goto(await invitationLink(mailbox, newcomer.email));
  await expect(
    device.page.getByRole("heading", { name: `${owner.name} invited you to join Social ${owner.username.slice(-6)}` }),
  ).toBeVisible();
  await device.page.getByRole("button", { name: `Continue with ${DEV_PROVIDER}` }).click();
  await continueAsNewIdentity(device.page, newcomer);
  await device.page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(device.page.getByRole("status").filter({ hasText: /^Welcome to Social/ })).toBeVisible();
  await device.context.close();
});

test("a sign-in cancelled at the provider ends on a page that says so and leads back", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: `Continue with ${DEV_PROVIDER}` }).click();
  await page.getByRole("button", { name: "Cancel and go back to Atrium" }).click();
  await expect(page).toHaveURL(/\/auth\/error\?error=access_denied(&|$)/);
  await expect(page.getByRole("heading", { name: "Sign-in cancelled" })).toBeVisible();
  await page.getByRole("link", { name: "Back to sign-in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});

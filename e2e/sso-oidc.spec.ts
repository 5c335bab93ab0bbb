import type { Page } from "@playwright/test";
import { expect, fillSignIn, newDevice, signOut, test } from "./fixtures";
import {
  continueWithSso,
  expectTestSignInWorked,
  ownerOnSsoSettings,
  requireSso,
  uniqueDomain,
  userAt,
  verifyDomain,
} from "./sso";

/** On the development OIDC provider's login page: makes up `person` and continues as them. */
async function continueAtProvider(page: Page, person: { name: string; email: string }) {
  await expect(page.getByRole("heading", { name: /^Sign in to / })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(person.name);
  await page.getByLabel("E-mail", { exact: true }).fill(person.email);
  await page.getByRole("button", { name: "Continue as this identity" }).click();
}

test("an owner connects the organization to an OIDC identity provider; a newcomer signs in through it and is a member", async ({
  page,
  mailbox,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const domain = uniqueDomain("oidc");
  const { owner, organizationId, organizationName } = await ownerOnSsoSettings(page, mailbox, domain);
  await expect(page.getByText("No connection yet.")).toBeVisible();
  await expect(page.getByRole("switch", { name: "Members must sign in with SSO" })).toBeDisabled();

  // The development provider's SSO client, as its page shows it.
  const clientPage = await (await page.request.get("/dev/oidc/sso-client")).text();
  const clientSecret = /Client secret<\/strong><br><code>([^<]+)<\/code>/.exec(clientPage)?.[1];
  expect(clientSecret).toBeTruthy();

  await page.getByRole("button", { name: "Add a connection" }).click();
  await page.getByRole("radio", { name: "OpenID Connect (OIDC)" }).check();
  const redirectUri = await page.getByRole("textbox", { name: "Redirect URI" }).inputValue();
  expect(redirectUri).toMatch(new RegExp(`^${baseURL}/api/auth/sso/callback/acme-[a-z0-9]+-oidc$`));
  await page.getByLabel("Issuer URL").fill(`${baseURL}/dev/oidc`);
  await page.getByLabel("Client ID").fill("atrium-sso");
  await page.getByLabel("Client secret").fill(clientSecret!);
  await page.getByLabel("E-mail domain").fill(domain);
  await page.getByRole("button", { name: "Save connection" }).click();

  const connection = page.getByRole("list", { name: "Connections" }).getByRole("listitem").filter({ hasText: domain });
  // Saved: listed, its domain pending until the TXT record is published.
  await expect(connection).toContainText("Pending verification");
  await verifyDomain(page, browser, baseURL);
  await expect(connection).toContainText("Verified");
  await expect(page.getByRole("switch", { name: "Members must sign in with SSO" })).toBeDisabled();

  // The test sign-in: the owner, as themself at the provider, comes back with the result.
  await page.getByRole("button", { name: "Test sign-in" }).click();
  await continueAtProvider(page, owner);
  await expectTestSignInWorked(page, organizationId);
  await requireSso(page);

  // A newcomer of the domain: "Continue with SSO", the provider, and in, as a member of the organization.
  const newcomer = userAt(domain, "newcomer");
  const device = await newDevice(browser, baseURL);
  await continueWithSso(device.page, newcomer.email);
  await continueAtProvider(device.page, newcomer);
  await expect(device.page.getByRole("heading", { name: `Welcome, ${newcomer.name}` })).toBeVisible();
  await expect(device.page.getByText(organizationName, { exact: true })).toBeVisible();
  await device.page.goto(`/organizations/${organizationId}/settings/members`);
  await expect(device.page.getByRole("row").filter({ hasText: newcomer.email })).toContainText("Member");
  // Members do not see the SSO settings.
  await expect(
    device.page
      .getByRole("navigation", { name: "Organization settings" })
      .getByRole("link", { name: "Single sign-on" }),
  ).toHaveCount(0);
  await device.context.close();

  // With SSO required, the owner's password no longer signs them in: the page points them to SSO instead.
  await signOut(page, owner.name);
  await fillSignIn(page, owner.email, owner.password);
  await expect(page.getByRole("status").filter({ hasText: "Your organization signs you in with SSO" })).toBeVisible();
  await expect(page.getByLabel("Work e-mail")).toHaveValue(owner.email);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  // The provider remembers the owner from the test sign-in, so it answers at once.
  await expect(page.getByRole("heading", { name: `Welcome, ${owner.name}` })).toBeVisible();
});

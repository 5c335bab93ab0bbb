// What the enterprise SSO browser tests share: an organization whose owner's address is on a domain of its own, the
// setup's domain step through the development DNS server's console (/dev/dns), and the test sign-in.
import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { createOrganization } from "./a11y";
import { expect, newDevice, signUpAndVerify, uniqueUser, type Mailbox, type TestUser } from "./fixtures";

/** A domain no other test uses, so each test's provider is the only one that verifies it. */
export function uniqueDomain(label: string): string {
  return `${label}-${Date.now().toString(36)}${randomBytes(2).toString("hex")}.test`;
}

/** Someone with an address at `domain`. */
export function userAt(domain: string, label: string): TestUser {
  const user = uniqueUser(label);
  return { ...user, email: `${user.email.split("@")[0]}@${domain}` };
}

/** An owner (signed up with a password, at `domain`) and their organization, on its Single sign-on settings. */
export async function ownerOnSsoSettings(page: Page, mailbox: Mailbox, domain: string) {
  const owner = userAt(domain, "owner");
  await signUpAndVerify(page, mailbox, owner);
  const suffix = domain.split(".")[0]!.slice(-8);
  const organizationName = `Acme ${suffix}`;
  const organizationId = await createOrganization(page, organizationName, `acme-${suffix}`);
  await page.goto(`/organizations/${organizationId}/settings`);
  await page
    .getByRole("navigation", { name: "Organization settings" })
    .getByRole("link", { name: "Single sign-on" })
    .click();
  await expect(page.getByRole("heading", { name: "Single sign-on", exact: true })).toBeVisible();
  return { owner, organizationId, organizationName };
}

/** Publishes the TXT record the setup shows on the development DNS server, in another tab, then verifies. */
export async function verifyDomain(page: Page, browser: Browser, baseURL: string | undefined) {
  await expect(page.getByText("Pending verification").first()).toBeVisible();
  const name = await page.getByRole("textbox", { name: "TXT record name" }).inputValue();
  const value = await page.getByRole("textbox", { name: "TXT record value" }).inputValue();
  expect(value).toMatch(/^atrium-sso=/);

  const dns = await newDevice(browser, baseURL);
  await dns.page.goto("/dev/dns");
  await dns.page.getByLabel("Name").fill(name);
  await dns.page.getByLabel("Value").fill(value);
  await dns.page.getByRole("button", { name: "Publish" }).click();
  await expect(dns.page.getByRole("cell", { name: value })).toBeVisible();
  await dns.context.close();

  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Domain verified" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Step 4, done: Verify your domain" })).toBeVisible();
}

/** After a test sign-in through the provider: back on the settings, the connection marked as working. */
export async function expectTestSignInWorked(page: Page, organizationId: string) {
  await expect(page).toHaveURL(new RegExp(`/organizations/${organizationId}/settings/sso\\?test=`));
  await expect(page.getByRole("status").filter({ hasText: "The connection works" })).toBeVisible();
}

/** Turns the policy on: only possible once a connection is verified and tested. */
export async function requireSso(page: Page) {
  const policy = page.getByRole("switch", { name: "Members must sign in with SSO" });
  await expect(policy).toBeEnabled();
  await policy.click();
  await expect(page.getByRole("status").filter({ hasText: "Members now sign in with SSO" })).toBeVisible();
  await expect(policy).toBeChecked();
}

/** On /sign-in: "Continue with SSO", the work e-mail, on to the identity provider. */
export async function continueWithSso(page: Page, email: string) {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Continue with SSO" }).click();
  await page.getByLabel("Work e-mail").fill(email);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
}

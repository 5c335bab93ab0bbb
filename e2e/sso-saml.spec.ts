import type { Page } from "@playwright/test";
import { expect, newDevice, test } from "./fixtures";
import {
  continueWithSso,
  expectTestSignInWorked,
  ownerOnSsoSettings,
  requireSso,
  uniqueDomain,
  userAt,
  verifyDomain,
} from "./sso";

/** On the development SAML IdP's login page: makes up `person` and continues as them (the answer posts itself). */
async function continueAtIdentityProvider(page: Page, person: { name: string; email: string }) {
  await expect(page.getByRole("heading", { name: "Sign in to Atrium" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(person.name);
  await page.getByLabel("E-mail", { exact: true }).fill(person.email);
  await page.getByRole("button", { name: "Continue as this identity" }).click();
}

test("an owner connects the organization to a SAML identity provider from its metadata; a newcomer signs in through it and is a member", async ({
  page,
  mailbox,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const domain = uniqueDomain("saml");
  const { owner, organizationId, organizationName } = await ownerOnSsoSettings(page, mailbox, domain);

  await page.getByRole("button", { name: "Add a connection" }).click();
  await page.getByRole("radio", { name: "SAML 2.0" }).check();
  // The values for the IdP: where it posts, who we are, and our metadata, which serves both.
  const acsUrl = await page.getByRole("textbox", { name: "ACS URL" }).inputValue();
  const entityId = await page.getByRole("textbox", { name: "Entity ID" }).inputValue();
  expect(acsUrl).toMatch(new RegExp(`^${baseURL}/api/auth/sso/saml2/sp/acs/acme-[a-z0-9]+-saml$`));
  expect(entityId).toBe(await page.getByRole("textbox", { name: "SP metadata URL" }).inputValue());

  // The IdP's metadata, as a file its administrator downloaded.
  const metadata = await (await page.request.get("/dev/saml/metadata")).body();
  await page.getByRole("radio", { name: "Metadata file" }).check();
  await page
    .getByLabel("Upload a metadata file")
    .setInputFiles({ name: "idp-metadata.xml", mimeType: "application/xml", buffer: metadata });
  await expect(page.getByRole("textbox", { name: "Metadata XML" })).toHaveValue(/EntityDescriptor/);
  await page.getByLabel("E-mail domain").fill(domain);
  await page.getByRole("button", { name: "Save connection" }).click();

  const connection = page.getByRole("list", { name: "Connections" }).getByRole("listitem").filter({ hasText: domain });
  await expect(connection).toContainText("SAML 2.0");
  await expect(connection).toContainText("Pending verification");
  await verifyDomain(page, browser, baseURL);
  await expect(connection).toContainText("Verified");

  // A test sign-in the connection refuses (here, an address outside its domain) comes back to this page, saying why.
  await page.getByRole("button", { name: "Test sign-in" }).click();
  await continueAtIdentityProvider(page, { name: "Eve Elsewhere", email: "eve@elsewhere.test" });
  await expect(page).toHaveURL(
    new RegExp(
      `/organizations/${organizationId}/settings/sso\\?test=acme-[a-z0-9]+-saml&error=SSO_EMAIL_OUTSIDE_DOMAIN$`,
    ),
  );
  await expect(page.getByRole("alert").filter({ hasText: "The test sign-in did not finish" })).toContainText(
    "The identity provider signed you in with an e-mail address outside the connection's domain.",
  );
  await expect(connection).not.toContainText("Tested");

  await page.getByRole("button", { name: `Details of ${domain}` }).click();
  await page.getByRole("button", { name: "Test sign-in" }).click();
  await continueAtIdentityProvider(page, owner);
  await expectTestSignInWorked(page, organizationId);
  await requireSso(page);

  const newcomer = userAt(domain, "newcomer");
  const device = await newDevice(browser, baseURL);
  await continueWithSso(device.page, newcomer.email);
  await continueAtIdentityProvider(device.page, newcomer);
  await expect(device.page.getByRole("heading", { name: `Welcome, ${newcomer.name}` })).toBeVisible();
  await expect(device.page.getByText(organizationName, { exact: true })).toBeVisible();
  await device.page.goto(`/organizations/${organizationId}/settings/members`);
  await expect(device.page.getByRole("row").filter({ hasText: newcomer.email })).toContainText("Member");
  await device.context.close();

  // A response the ACS refuses (here, one no IdP signed), posted by a browser as an IdP's page does, ends on a page.
  const stranger = await newDevice(browser, baseURL);
  await stranger.page.goto("/sign-in");
  await stranger.page.evaluate((acs) => {
    const form = document.createElement("form");
    form.method = "POST";
    form.action = acs;
    const field = document.createElement("input");
    field.type = "hidden";
    field.name = "SAMLResponse";
    field.value = btoa('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>');
    form.append(field);
    document.body.append(form);
    form.submit();
  }, acsUrl);
  await expect(
    stranger.page.getByRole("heading", { name: "Your identity provider's answer was refused" }),
  ).toBeVisible();
  await expect(stranger.page).toHaveURL(/\/auth\/error\?error=SSO_SAML_RESPONSE_REFUSED$/);
  await stranger.context.close();
});

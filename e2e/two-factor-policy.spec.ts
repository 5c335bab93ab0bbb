import { addMember, createOrganization } from "./a11y";
import { expect, newDevice, signUpAndVerify, test, uniqueUser } from "./fixtures";
import { turnOnAuthenticator } from "./totp";

test("an organization requiring a second factor takes a member without one to set it up, then back", async ({
  page,
  mailbox,
  user,
  browser,
  baseURL,
}) => {
  // Two people, two enrolments: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  await signUpAndVerify(page, mailbox, user);
  const suffix = user.username.slice(-6).toLowerCase();
  const organizationName = `Policy ${suffix}`;
  const organizationId = await createOrganization(page, organizationName, `policy-${suffix}`);
  const member = uniqueUser("member");
  const phone = await newDevice(browser, baseURL);
  await signUpAndVerify(phone.page, mailbox, member);
  await addMember(page, phone.page, mailbox, organizationId, member.email);

  // The owner, with a second factor of their own, turns the policy on.
  await turnOnAuthenticator(page, user.password);
  await page.goto(`/organizations/${organizationId}/settings/security`);
  const policy = page.getByRole("switch", { name: "Members must have a second factor" });
  await policy.click();
  await expect(policy).toBeChecked();

  // The member opens the organization: they are taken to set up a second factor, told why.
  const settings = `/organizations/${organizationId}/settings`;
  await phone.page.goto(settings);
  await expect(phone.page).toHaveURL(
    `/account/security?${new URLSearchParams({ next: settings, reason: "two-factor-required" })}`,
  );
  await expect(phone.page.getByText("An organization you belong to requires a second factor")).toBeVisible();

  await turnOnAuthenticator(phone.page, member.password);
  await expect(phone.page.getByText("An organization you belong to requires a second factor")).toBeHidden();
  // Back to where they were, by keyboard.
  await phone.page.getByRole("link", { name: "Go back to where you were" }).focus();
  await phone.page.keyboard.press("Enter");
  await expect(phone.page).toHaveURL(settings);
  await expect(phone.page.getByRole("heading", { name: "General" })).toBeVisible();
  await expect(phone.page.getByRole("heading", { name: organizationName })).toBeVisible();
  await phone.context.close();
});

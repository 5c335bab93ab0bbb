import type { Page } from "@playwright/test";
import {
  addMember,
  adminPages,
  axeViolations,
  createOrganization,
  createTeam,
  currentUserId,
  ownerPages,
  registerSsoConnection,
  SIGNED_OUT_PAGES,
  visit,
  type PageVisit,
} from "./a11y";
import { expect, newDevice, signIn, signUpAndVerify, test, uniqueUser } from "./fixtures";
import { WRITES_THE_DATABASE } from "./database";
import { walkSecondFactorScreens } from "./second-factor-screens";

const THEMES = ["light", "dark"] as const;
type Theme = (typeof THEMES)[number];

/** Shows the page in `theme` the way a visitor who never chose one gets it: from the system's setting. */
async function useTheme(page: Page, theme: Theme) {
  await page.emulateMedia({ colorScheme: theme });
}

async function expectTheme(page: Page, theme: Theme) {
  if (theme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  else await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
}

/**
 * No axe violation on the page as it is now, in either theme. The theme changes in place, as it does when the
 * system's setting changes: the page is not loaded twice, and open menus and dialogs stay open. Soft: one run lists
 * every problem, not only the first.
 */
async function expectAxeClean(page: Page, where: string) {
  for (const theme of THEMES) {
    await useTheme(page, theme);
    await expectTheme(page, theme);
    // The page changed theme in place: its colours fade (CSS transitions) before axe may read them.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation instanceof CSSTransition)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
    );
    expect.soft(await axeViolations(page), `${where} in the ${theme} theme`).toBe("");
  }
  await useTheme(page, "light");
}

/** Every page, in both themes: no axe violation. */
async function checkPages(page: Page, pages: PageVisit[]) {
  for (const visited of pages) {
    await visit(page, visited);
    await expectAxeClean(page, visited.path);
  }
}

test("every signed-out page passes axe in both themes", async ({ page }) => {
  // Ten pages and twenty axe runs: two minutes on a loaded machine.
  test.setTimeout(240_000);
  await checkPages(page, SIGNED_OUT_PAGES);
});

test("every page of an organization owner, the open menus and a dialog pass axe in both themes", async ({
  page,
  mailbox,
  user,
  browser,
  baseURL,
}) => {
  test.setTimeout(360_000);
  await signUpAndVerify(page, mailbox, user);
  const suffix = user.username.slice(-6).toLowerCase();
  const organizationName = `Axe ${suffix}`;
  const organizationId = await createOrganization(page, organizationName, `axe-${suffix}`);
  await createTeam(page, organizationId, "Launch crew");
  // A second member (a "Remove" button in the members table) and a second session (a "Sign out" button).
  const member = uniqueUser("member");
  const device = await newDevice(browser, baseURL);
  await signUpAndVerify(device.page, mailbox, member);
  await addMember(page, device.page, mailbox, organizationId, member.email);
  const phone = await newDevice(browser, baseURL);
  await signIn(phone.page, user.email, user.password, user.name);
  await Promise.all([device.context.close(), phone.context.close()]);

  await checkPages(page, ownerPages(organizationId, user.name, organizationName));

  await visit(page, { path: "/", heading: `Welcome, ${user.name}` });
  await page.getByRole("button", { name: `Account menu for ${user.name}` }).click();
  await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeVisible();
  await expectAxeClean(page, "the account menu");
  await page.keyboard.press("Escape");

  await page
    .getByRole("banner")
    .getByRole("button", { name: /organization/i })
    .click();
  await expect(page.getByRole("menuitem", { name: "Create organization" })).toBeVisible();
  await expectAxeClean(page, "the organization switcher");
  await page.keyboard.press("Escape");

  await visit(page, { path: "/account/sessions", heading: "Sessions" });
  await page.getByRole("button", { name: "Sign out all other sessions" }).click();
  await expect(page.getByRole("dialog", { name: "Sign out all other sessions?" })).toBeVisible();
  await expectAxeClean(page, "a dialog");
  await page.keyboard.press("Escape");
});

test("single sign-on: a connection's setup steps, a new SAML connection's form, the delete dialog and the sign-in page's SSO form pass axe in both themes", async ({
  page,
  mailbox,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const owner = uniqueUser("sso");
  await signUpAndVerify(page, mailbox, owner);
  const suffix = owner.username.slice(-6).toLowerCase();
  const organizationId = await createOrganization(page, `Axe SSO ${suffix}`, `axe-sso-${suffix}`);
  const domain = `axe-${suffix}.test`;
  await registerSsoConnection(page, organizationId, domain);
  const signedOut = await newDevice(browser, baseURL);

  await visit(page, { path: `/organizations/${organizationId}/settings/sso`, heading: "Single sign-on" });
  await page.getByRole("button", { name: `Continue setup of ${domain}` }).click();
  // Registered with the TXT record to publish (the plugin made it).
  await expect(page.getByRole("textbox", { name: "TXT record value" })).toBeVisible();
  await expectAxeClean(page, "a connection's setup");

  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await page.getByRole("button", { name: "Add a connection" }).click();
  await page.getByRole("radio", { name: "SAML 2.0" }).check();
  await page.getByRole("button", { name: "Save connection" }).click();
  await expect(page.getByText("Paste or upload the identity provider's metadata")).toBeVisible();
  await expectAxeClean(page, "a new SAML connection's form, refused");

  await page.getByRole("button", { name: `Delete the connection of ${domain}` }).click();
  await expect(page.getByRole("dialog", { name: "Delete this connection?" })).toBeVisible();
  await expectAxeClean(page, "the delete dialog");
  await page.keyboard.press("Escape");

  await visit(signedOut.page, { path: "/sign-in", heading: "Sign in" });
  await signedOut.page.getByRole("button", { name: "Continue with SSO" }).click();
  await signedOut.page.getByLabel("Work e-mail").fill("nobody@unknown-domain.test");
  await signedOut.page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(signedOut.page.getByRole("alert")).toContainText("No organization signs in with SSO");
  await expectAxeClean(signedOut.page, "the sign-in page's SSO form");
  await signedOut.context.close();
});

test("every admin console page passes axe in both themes", async ({ page, mailbox, browser, baseURL }) => {
  test.setTimeout(240_000);
  const owner = uniqueUser("owner");
  const device = await newDevice(browser, baseURL);
  await signUpAndVerify(device.page, mailbox, owner);
  const suffix = owner.username.slice(-6).toLowerCase();
  const organizationName = `Console ${suffix}`;
  const organizationId = await createOrganization(device.page, organizationName, `console-${suffix}`);
  const ownerId = await currentUserId(device.page);
  await device.context.close();

  // global-setup.ts lists this address in ADMIN_EMAILS: whoever signs up with it is a platform admin.
  await signUpAndVerify(page, mailbox, { ...uniqueUser("admin"), email: "a11y-admin@example.test" });
  await checkPages(page, adminPages(ownerId, owner.name, organizationId, organizationName));
});

test(
  "every screen of second factors and passkeys and their dialogs pass axe in both themes",
  { tag: WRITES_THE_DATABASE },
  async ({ page, mailbox, user, browser, baseURL }) => {
    // Three people, two devices and 22 axe runs.
    test.setTimeout(300_000);
    const suffix = user.username.slice(-6).toLowerCase();
    await walkSecondFactorScreens({
      page,
      mailbox,
      owner: user,
      organization: { name: `Factors ${suffix}`, slug: `factors-${suffix}` },
      passkeyName: "Work laptop",
      adminEmail: "second-factor-a11y-admin@example.test",
      openDevice: () => newDevice(browser, baseURL),
      check: expectAxeClean,
    });
  },
);

test("the theme follows the system's while the page is open, until the person chooses one", async ({ page }) => {
  await useTheme(page, "light");
  await visit(page, { path: "/sign-in", heading: "Sign in" });
  await expectTheme(page, "light");
  await useTheme(page, "dark");
  await expectTheme(page, "dark");
  await expect(page.getByRole("button", { name: "Switch to light mode" })).toBeVisible();
  await useTheme(page, "light");
  await expectTheme(page, "light");
  await expect(page.getByRole("button", { name: "Switch to dark mode" })).toBeVisible();

  // An explicit choice stays, whatever the system says, also on the next visit.
  await page.getByRole("button", { name: "Switch to dark mode" }).click();
  await expectTheme(page, "dark");
  await useTheme(page, "light");
  await useTheme(page, "dark");
  await useTheme(page, "light");
  await expectTheme(page, "dark");
  await page.reload();
  await expectTheme(page, "dark");
});

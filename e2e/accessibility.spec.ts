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

/** Every page in both themes: no axe violation. */
async function checkPages(page: Page, pages: PageVisit[]) {
  for (const theme of THEMES) {
    await useTheme(page, theme);
    for (const visited of pages) {
      await visit(page, visited);
      await expectTheme(page, theme);
      // Soft: one run lists every page's problems, not only the first page's.
      expect.soft(await axeViolations(page), `${visited.path} in the ${theme} theme`).toBe("");
    }
  }
}

test("every signed-out page passes axe in both themes", async ({ page }) => {
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

  for (const theme of THEMES) {
    await useTheme(page, theme);
    await visit(page, { path: "/", heading: `Welcome, ${user.name}` });
    await page.getByRole("button", { name: `Account menu for ${user.name}` }).click();
    await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeVisible();
    expect(await axeViolations(page), `the account menu in the ${theme} theme`).toBe("");
    await page.keyboard.press("Escape");

    await page
      .getByRole("banner")
      .getByRole("button", { name: /organization/i })
      .click();
    await expect(page.getByRole("menuitem", { name: "Create organization" })).toBeVisible();
    expect(await axeViolations(page), `the organization switcher in the ${theme} theme`).toBe("");
    await page.keyboard.press("Escape");

    await visit(page, { path: "/account/sessions", heading: "Sessions" });
    await page.getByRole("button", { name: "Sign out all other sessions" }).click();
    await expect(page.getByRole("dialog", { name: "Sign out all other sessions?" })).toBeVisible();
    expect(await axeViolations(page), `a dialog in the ${theme} theme`).toBe("");
    await page.keyboard.press("Escape");
  }
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

  for (const theme of THEMES) {
    await useTheme(page, theme);
    await visit(page, { path: `/organizations/${organizationId}/settings/sso`, heading: "Single sign-on" });
    await page.getByRole("button", { name: `Continue setup of ${domain}` }).click();
    // Registered with the TXT record to publish (the plugin made it).
    await expect(page.getByRole("textbox", { name: "TXT record value" })).toBeVisible();
    expect(await axeViolations(page), `a connection's setup in the ${theme} theme`).toBe("");

    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await page.getByRole("button", { name: "Add a connection" }).click();
    await page.getByRole("radio", { name: "SAML 2.0" }).check();
    await page.getByRole("button", { name: "Save connection" }).click();
    await expect(page.getByText("Paste or upload the identity provider's metadata")).toBeVisible();
    expect(await axeViolations(page), `a new SAML connection's form, refused, in the ${theme} theme`).toBe("");

    await page.getByRole("button", { name: `Delete the connection of ${domain}` }).click();
    await expect(page.getByRole("dialog", { name: "Delete this connection?" })).toBeVisible();
    expect(await axeViolations(page), `the delete dialog in the ${theme} theme`).toBe("");
    await page.keyboard.press("Escape");

    await useTheme(signedOut.page, theme);
    await visit(signedOut.page, { path: "/sign-in", heading: "Sign in" });
    await signedOut.page.getByRole("button", { name: "Continue with SSO" }).click();
    await signedOut.page.getByLabel("Work e-mail").fill("nobody@unknown-domain.test");
    await signedOut.page.getByRole("button", { name: "Continue", exact: true }).click();
    await expect(signedOut.page.getByRole("alert")).toContainText("No organization signs in with SSO");
    expect(await axeViolations(signedOut.page), `the sign-in page's SSO form in the ${theme} theme`).toBe("");
  }
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
      check: async (screen, where) => {
        for (const theme of THEMES) {
          await useTheme(screen, theme);
          await expectTheme(screen, theme);
          // The page changed theme in place: its colours fade (CSS transitions) before axe may read them.
          await screen.evaluate(() =>
            Promise.all(
              document
                .getAnimations()
                .filter((animation) => animation instanceof CSSTransition)
                .map((animation) => animation.finished.catch(() => undefined)),
            ),
          );
          expect.soft(await axeViolations(screen), `${where} in the ${theme} theme`).toBe("");
        }
        await useTheme(screen, "light");
      },
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

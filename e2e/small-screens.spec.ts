import type { Browser, Locator, Page } from "@playwright/test";
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from "../common/account.schemas";
import { ORGANIZATION_NAME_MAX_LENGTH, SLUG_MAX_LENGTH, TEAM_NAME_MAX_LENGTH } from "../common/organization.schemas";
import {
  addMember,
  addTeamMember,
  adminPages,
  createOrganization,
  createTeam,
  currentUserId,
  ownerPages,
  registerSsoConnection,
  SIGNED_OUT_PAGES,
  visit,
  type PageVisit,
} from "./a11y";
import {
  expect,
  invitationLink,
  nextClientAddress,
  signIn,
  signUpAndVerify,
  test,
  uniqueUser,
  type TestUser,
} from "./fixtures";
import { WRITES_THE_DATABASE } from "./database";
import { walkSecondFactorScreens } from "./second-factor-screens";

/** A small phone. */
const WIDTH = 375;
const PHONE = { width: WIDTH, height: 740 };
test.use({ viewport: PHONE });

/** `length` characters with no space or dash to break at, starting with `start` (so each is unique). */
function unbroken(start: string, length: number): string {
  return `${start}${"W".repeat(length)}`.slice(0, length);
}

/** An e-mail address exactly at the server's limit: a 64-character local part and long (valid) domain labels. */
function longestEmail(label: string): string {
  const local = `${label}${"x".repeat(64)}`.slice(0, 64);
  const domainEnd = ".example.test";
  const labels = EMAIL_MAX_LENGTH - local.length - 1 - domainEnd.length; // what the labels and their dots may use
  const domain = `${"d".repeat(63)}.${"e".repeat(63)}.${"f".repeat(labels - 63 * 2 - 2)}${domainEnd}`;
  const email = `${local}@${domain}`;
  expect(email).toHaveLength(EMAIL_MAX_LENGTH);
  return email;
}

/** A person whose name and e-mail are as long as the server takes, with no place to break a line. */
function longPerson(label: string): TestUser {
  const user = uniqueUser(label);
  return {
    ...user,
    name: unbroken(`${label}${user.username.slice(-6)}`, NAME_MAX_LENGTH),
    email: longestEmail(`${label}${user.username.slice(-6)}`),
  };
}

/**
 * Nothing sticks out sideways: the page never scrolls horizontally. The message names the innermost elements that
 * reach past the screen's edge, which is where a fix goes.
 */
async function expectNoHorizontalOverflow(page: Page, where: string) {
  const { width, culprits } = await page.evaluate((screen) => {
    const sticksOut = (element: Element) => element.getBoundingClientRect().right > screen + 0.5;
    /** Inside a box that scrolls or clips sideways and itself fits (a row of tabs): not the page's problem. */
    const isClipped = (element: Element) => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== "visible" && !sticksOut(box)) return true;
      }
      return false;
    };
    const wide = [...document.body.querySelectorAll("*")].filter(
      (element) => sticksOut(element) && !isClipped(element),
    );
    const innermost = wide.filter((element) => !wide.some((other) => other !== element && element.contains(other)));
    const describe = (element: Element) =>
      `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}"> ${(element.textContent ?? "").slice(0, 40)}`;
    return { width: document.documentElement.scrollWidth, culprits: innermost.slice(0, 5).map(describe) };
  }, WIDTH);
  expect
    .soft(width, `${where} is ${width} px wide on a ${WIDTH} px screen:\n${culprits.join("\n")}`)
    .toBeLessThanOrEqual(WIDTH);
}

/**
 * The control shows on screen where it is, without scrolling anything sideways: its box lies inside the screen's width
 * and it is what a tap at its centre hits; then a click on it is tried.
 */
async function expectReachable(control: Locator, where: string) {
  await control.evaluate((element) =>
    window.scrollTo({ top: element.getBoundingClientRect().top + window.scrollY - 200, behavior: "instant" }),
  );
  const placement = await control.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      left: Math.round(box.left),
      right: Math.round(box.right),
      screen: window.innerWidth,
      isHit: hit !== null && element.contains(hit),
    };
  });
  expect.soft(placement.left, `${where} starts on screen`).toBeGreaterThanOrEqual(0);
  expect.soft(placement.right, `${where} ends on screen`).toBeLessThanOrEqual(placement.screen);
  expect.soft(placement.isHit, `${where} is what a tap on it hits`).toBe(true);
  if (placement.isHit) await control.click({ trial: true });
}

/** Opens every page in turn and checks none is wider than the screen. */
async function checkPages(page: Page, pages: PageVisit[]) {
  for (const visited of pages) {
    await visit(page, visited);
    await expectNoHorizontalOverflow(page, visited.path);
  }
}

/** A signed-in phone: its own cookies, client address and viewport. */
async function newPhone(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({
    baseURL,
    viewport: PHONE,
    extraHTTPHeaders: { "x-forwarded-for": nextClientAddress() },
  });
  return { context, page: await context.newPage() };
}

test("every signed-out page fits a 375 px screen", async ({ page }) => {
  await checkPages(page, SIGNED_OUT_PAGES);
});

test("with names and e-mails at the server's limits, every signed-in and admin page fits a 375 px screen and its actions stay reachable", async ({
  page,
  mailbox,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const owner = longPerson("owner");
  await signUpAndVerify(page, mailbox, owner);
  const suffix = owner.username.slice(-6).toLowerCase();
  const organizationName = unbroken(`Org${suffix}`, ORGANIZATION_NAME_MAX_LENGTH);
  const slug = `s${suffix}${"x".repeat(SLUG_MAX_LENGTH)}`.slice(0, SLUG_MAX_LENGTH);
  const organizationId = await createOrganization(page, organizationName, slug);
  const teamId = await createTeam(page, organizationId, unbroken(`Team${suffix}`, TEAM_NAME_MAX_LENGTH));

  // A member with a long name and e-mail, in the team; a pending invitation to another long address; a second session.
  const member = longPerson("member");
  const memberPhone = await newPhone(browser, baseURL);
  await signUpAndVerify(memberPhone.page, mailbox, member);
  await addMember(page, memberPhone.page, mailbox, organizationId, member.email);
  await addTeamMember(page, organizationId, teamId, await currentUserId(memberPhone.page));
  await memberPhone.context.close();
  const invitee = longestEmail(`invitee${suffix}`);
  await page.goto(`/organizations/${organizationId}/settings/invitations`);
  await page.getByLabel("E-mail", { exact: true }).fill(invitee);
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByRole("button", { name: `Resend invitation to ${invitee}` })).toBeVisible();
  const secondSession = await newPhone(browser, baseURL);
  await signIn(secondSession.page, owner.email, owner.password, owner.name);
  await secondSession.context.close();

  await checkPages(page, ownerPages(organizationId, owner.name, organizationName));

  // The tables' row actions show beside each row, not off to the right.
  await visit(page, { path: "/account/sessions", heading: "Sessions" });
  await expectReachable(page.getByRole("button", { name: /^Sign out .+\(/ }), "the sessions table's Sign out");
  await visit(page, { path: `/organizations/${organizationId}/settings/members`, heading: "Members" });
  await expectReachable(page.getByRole("button", { name: `Remove ${member.name}` }), "the members table's Remove");
  await expectReachable(page.getByRole("combobox", { name: `Role of ${member.name}` }), "the members table's role");
  await visit(page, { path: `/organizations/${organizationId}/settings/invitations`, heading: "Invite someone" });
  await expectReachable(
    page.getByRole("button", { name: `Resend invitation to ${invitee}` }),
    "the invitations' Resend",
  );

  // The last tabs of each settings page come into view and open.
  await visit(page, { path: `/organizations/${organizationId}/settings`, heading: "General" });
  const organizationTabs = page.getByRole("navigation", { name: "Organization settings" });
  await organizationTabs.getByRole("link", { name: "Danger zone" }).click();
  await expect(page.getByRole("heading", { name: "Delete organization" })).toBeVisible();
  await expectReachable(organizationTabs.getByRole("link", { name: "Danger zone" }), "the Danger zone tab");
  await expectNoHorizontalOverflow(page, "the organization settings tabs");
  await visit(page, { path: "/account", heading: "Profile" });
  const accountTabs = page.getByRole("navigation", { name: "Account settings" });
  await accountTabs.getByRole("link", { name: "Delete account" }).click();
  await expect(page.getByRole("heading", { name: "Delete account" })).toBeVisible();
  await expectReachable(accountTabs.getByRole("link", { name: "Delete account" }), "the Delete account tab");
  await expectNoHorizontalOverflow(page, "the account settings tabs");

  // A long organization name leaves its actions on the home page whole (one line each), not squeezed.
  await visit(page, { path: "/", heading: `Welcome, ${owner.name}` });
  const settingsLink = page.getByRole("link", { name: "Settings", exact: true });
  await expectReachable(settingsLink, "the home page's Settings of an organization");
  expect.soft((await settingsLink.boundingBox())?.height, "the Settings link is one line").toBeLessThan(40);

  // The header's menus with the long names.
  await visit(page, { path: "/", heading: `Welcome, ${owner.name}` });
  await page.getByRole("button", { name: `Account menu for ${owner.name}` }).click();
  await expectReachable(page.getByRole("menuitem", { name: "Sign out" }), "the account menu's Sign out");
  await expectNoHorizontalOverflow(page, "the account menu");
  await page.keyboard.press("Escape");
  await page
    .getByRole("banner")
    .getByRole("button", { name: /organization/i })
    .click();
  await expectReachable(
    page.getByRole("menuitem", { name: "Create organization" }),
    "the switcher's Create organization",
  );
  await expectNoHorizontalOverflow(page, "the organization switcher");
  await page.keyboard.press("Escape");

  // On a wide screen too, a long name is cut short (with the full name as its title) rather than push the row's action
  // out of sight.
  await page.setViewportSize({ width: 1280, height: 800 });
  await visit(page, { path: `/organizations/${organizationId}/settings/members`, heading: "Members" });
  await expectReachable(
    page.getByRole("button", { name: `Remove ${member.name}` }),
    "the members table's Remove at 1280 px",
  );
  await expect(page.getByText(member.name, { exact: true })).toHaveAttribute("title", member.name);
  await page.setViewportSize(PHONE);

  // The invitation page a newcomer opens.
  const newcomer = await newPhone(browser, baseURL);
  await visit(newcomer.page, {
    path: new URL(await invitationLink(mailbox, invitee)).pathname,
    heading: / invited you to join /,
  });
  await expectNoHorizontalOverflow(newcomer.page, "the invitation page");
  await newcomer.context.close();

  // The admin console with the same long names.
  const admin = await newPhone(browser, baseURL);
  await signUpAndVerify(admin.page, mailbox, { ...uniqueUser("admin"), email: "small-screens-admin@example.test" });
  const ownerId = await currentUserId(page);
  await checkPages(admin.page, adminPages(ownerId, owner.name, organizationId, organizationName));
  await visit(admin.page, { path: `/admin?q=${encodeURIComponent(owner.username)}`, heading: "Users" });
  const ownerLink = admin.page.getByRole("table", { name: "Users" }).getByRole("link", { name: owner.name });
  await expectReachable(ownerLink, "the users table's link to a user");
  await admin.page.setViewportSize({ width: 1280, height: 800 });
  await expectReachable(
    admin.page
      .getByRole("row")
      .filter({ has: admin.page.getByRole("link", { name: owner.name }) })
      .getByRole("cell")
      .last(),
    "the users table's last column at 1280 px",
  );
  await admin.page.setViewportSize(PHONE);
  await visit(admin.page, { path: `/admin/users/${ownerId}`, heading: owner.name });
  await expectReachable(admin.page.getByRole("button", { name: /^Revoke / }).first(), "the user's sessions' Revoke");
  await visit(admin.page, { path: "/admin/organizations", heading: "Organizations" });
  await expectReachable(
    admin.page.getByRole("table", { name: "Organizations" }).getByRole("link", { name: organizationName }),
    "the organizations table's link",
  );
  await admin.context.close();
});

test(
  "every screen of second factors and passkeys and their dialogs fit a 375 px screen, with long names",
  { tag: WRITES_THE_DATABASE },
  async ({ page, mailbox, browser, baseURL }) => {
    test.setTimeout(180_000);
    const owner = longPerson("factors");
    const suffix = owner.username.slice(-6).toLowerCase();
    await walkSecondFactorScreens({
      page,
      mailbox,
      owner,
      organization: {
        name: unbroken(`Org${suffix}`, ORGANIZATION_NAME_MAX_LENGTH),
        slug: `f${suffix}${"x".repeat(SLUG_MAX_LENGTH)}`.slice(0, SLUG_MAX_LENGTH),
      },
      passkeyName: unbroken(`Passkey${suffix}`, NAME_MAX_LENGTH),
      adminEmail: "second-factor-small-admin@example.test",
      openDevice: () => newPhone(browser, baseURL),
      check: (screen, where) => expectNoHorizontalOverflow(screen, where),
    });
  },
);

test("single sign-on fits a 375 px screen: a connection's setup with its long values, a new connection's form, and the sign-in page's SSO form", async ({
  page,
  mailbox,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const owner = uniqueUser("sso");
  await signUpAndVerify(page, mailbox, owner);
  const suffix = owner.username.slice(-6).toLowerCase();
  const organizationId = await createOrganization(page, `Phone SSO ${suffix}`, `phone-sso-${suffix}`);
  const domain = `phone-${suffix}.${"long-subdomain.".repeat(4)}test`;
  await registerSsoConnection(page, organizationId, domain);

  await visit(page, { path: `/organizations/${organizationId}/settings/sso`, heading: "Single sign-on" });
  await expectNoHorizontalOverflow(page, "the SSO settings with a connection");
  await expectReachable(
    page.getByRole("button", { name: `Delete the connection of ${domain}` }),
    "a connection's Delete",
  );
  await page.getByRole("button", { name: `Continue setup of ${domain}` }).click();
  await expect(page.getByRole("textbox", { name: "TXT record value" })).toBeVisible();
  await expectNoHorizontalOverflow(page, "a connection's setup");
  for (const label of ["Redirect URI", "TXT record name", "TXT record value"])
    await expectReachable(page.getByRole("button", { name: `Copy ${label}` }), `the Copy of the ${label}`);
  await expectReachable(page.getByRole("button", { name: "Verify", exact: true }), "the setup's Verify");

  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await page.getByRole("button", { name: "Add a connection" }).click();
  await page.getByRole("radio", { name: "SAML 2.0" }).check();
  await page.getByRole("radio", { name: "Enter the values" }).check();
  await expectNoHorizontalOverflow(page, "a new SAML connection's form");
  for (const label of ["ACS URL", "Entity ID", "SP metadata URL"])
    await expectReachable(page.getByRole("button", { name: `Copy ${label}` }), `the Copy of the ${label}`);
  await expectReachable(page.getByRole("button", { name: "Save connection" }), "the form's Save connection");

  const phone = await newPhone(browser, baseURL);
  await visit(phone.page, { path: "/sign-in", heading: "Sign in" });
  await phone.page.getByRole("button", { name: "Continue with SSO" }).click();
  await expect(phone.page.getByLabel("Work e-mail")).toBeVisible();
  await expectNoHorizontalOverflow(phone.page, "the sign-in page's SSO form");
  await expectReachable(phone.page.getByRole("button", { name: "Continue", exact: true }), "the SSO form's Continue");
  await phone.context.close();
});

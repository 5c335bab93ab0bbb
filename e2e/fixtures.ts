import { randomBytes } from "node:crypto";
import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from "@playwright/test";

export { expect };

export type TestUser = { name: string; email: string; username: string; password: string };
export type Mail = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };

export const SUBJECTS = {
  verification: "Verify your e-mail address for Atrium",
  passwordReset: "Reset your Atrium password",
  passwordChanged: "Your password was changed — Atrium",
  accountDeleted: "Your account was deleted — Atrium",
  emailChangeLink: "Confirm your new e-mail address for Atrium",
  emailChanged: "Your e-mail address was changed — Atrium",
} as const;

/** A person nobody else in the run uses: name, e-mail, username and a valid password. */
export function uniqueUser(label = "user"): TestUser {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  return {
    name: `Ada ${label} ${id.slice(-4)}`,
    email: `${label}-${id}@example.test`,
    username: `${label}_${id}`.slice(0, 30),
    password: `Correct-horse-${id}`,
  };
}

/**
 * Every test gets its own client address (X-Forwarded-For, trusted from 127.0.0.1 only), so the rate
 * limits stay on without independent tests sharing a bucket. Addresses come from the documentation
 * ranges; each worker (parallel index) has its own block of 120.
 */
let addressCounter = 0;
export function nextClientAddress(): string {
  const parallelIndex = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
  const host = (addressCounter++ % 120) + 1 + (parallelIndex % 2) * 120;
  const network = parallelIndex < 2 ? "203.0.113" : "198.51.100";
  return `${network}.${host}`;
}

/** Finds mail in the dev mailbox; `waitFor` polls until a mail with the subject arrives (no fixed sleeps). */
export class Mailbox {
  constructor(private readonly request: APIRequestContext) {}

  async list(to: string): Promise<Mail[]> {
    const response = await this.request.get(`/api/dev/mail?to=${encodeURIComponent(to)}`);
    expect(response.ok(), `GET /api/dev/mail answered ${response.status()}`).toBe(true);
    return (await response.json()) as Mail[];
  }

  async count(to: string, subject: string): Promise<number> {
    return (await this.list(to)).filter((mail) => mail.subject === subject).length;
  }

  /** The newest mail with this subject, once there are at least `atLeast` of them. */
  async waitFor(to: string, subject: string, options: { atLeast?: number; timeout?: number } = {}): Promise<Mail> {
    const atLeast = options.atLeast ?? 1;
    let found: Mail[] = [];
    await expect
      .poll(
        async () => {
          found = (await this.list(to)).filter((mail) => mail.subject === subject);
          return found.length;
        },
        { message: `a mail "${subject}" to ${to}`, timeout: options.timeout ?? 10_000, intervals: [100, 200, 250] },
      )
      .toBeGreaterThanOrEqual(atLeast);
    return found[0]!;
  }
}

/** The first link in a plain-text mail. */
export function extractLink(text: string): string {
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`No link in the mail:\n${text}`);
  return match[0];
}

export async function signUp(page: Page, user: TestUser, options: { withUsername?: boolean } = {}): Promise<void> {
  await page.goto("/sign-up");
  await page.getByLabel("Name", { exact: true }).fill(user.name);
  await page.getByLabel("E-mail", { exact: true }).fill(user.email);
  if (options.withUsername ?? true) await page.getByLabel("Username (optional)", { exact: true }).fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
}

/**
 * Signs up as the sign-up form does, through its API call (the form itself is walked in sign-up.spec.ts and
 * forms.spec.ts; here it would be a page load and four fields typed for every person a test needs), opens the mailed
 * verification link and lands signed in on the home page.
 */
export async function signUpAndVerify(
  page: Page,
  mailbox: Mailbox,
  user: TestUser,
  options: { withUsername?: boolean } = {},
): Promise<void> {
  const { name, email, username, password } = user;
  const response = await page.request.post("/api/auth/sign-up/email", {
    headers: { origin: new URL(test.info().project.use.baseURL!).origin },
    data: { name, email, password, ...((options.withUsername ?? true) ? { username } : {}), callbackURL: "/" },
  });
  expect(response.status(), `sign-up of ${email}: ${await response.text()}`).toBe(200);
  const mail = await mailbox.waitFor(user.email, SUBJECTS.verification);
  await page.goto(extractLink(mail.text));
  await expect(page.getByRole("heading", { name: `Welcome, ${user.name}` })).toBeVisible();
}

/** Signs in with an e-mail address or a username; does not assert the outcome. */
export async function fillSignIn(page: Page, identifier: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("E-mail or username", { exact: true }).fill(identifier);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Signs in and waits for the signed-in home page. */
export async function signIn(page: Page, identifier: string, password: string, name?: string): Promise<void> {
  await fillSignIn(page, identifier, password);
  await expect(page.getByRole("heading", { name: name ? `Welcome, ${name}` : /^Welcome, / })).toBeVisible();
}

export async function signOut(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: `Account menu for ${name}` }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
}

export type Device = { context: BrowserContext; page: Page; address: string };

/** Another browser on another machine: its own cookies and its own client address. Close its `context` when done. */
export async function newDevice(browser: Browser, baseURL: string | undefined): Promise<Device> {
  const address = nextClientAddress();
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": address } });
  return { context, page: await context.newPage(), address };
}

const INVITATION_SUBJECT = /invited you to .* on Atrium$/;

/** The link of the newest invitation mail to `to`. */
export async function invitationLink(mailbox: Mailbox, to: string): Promise<string> {
  let link = "";
  await expect
    .poll(
      async () => {
        const mail = (await mailbox.list(to)).find((candidate) => INVITATION_SUBJECT.test(candidate.subject));
        link = mail ? extractLink(mail.text) : "";
        return link;
      },
      { message: `an invitation mail to ${to}`, timeout: 10_000 },
    )
    .toContain("/invitations/");
  return link;
}

/** Creates an organization from the app's form; answers its id, read from the settings page it lands on. */
export async function createOrganization(page: Page, name: string): Promise<string> {
  await page.goto("/organizations/new");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await expect(page.getByText("✓ This slug is available")).toBeVisible();
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  const id = /\/organizations\/([^/]+)\/settings/.exec(page.url())?.[1];
  if (!id) throw new Error(`Creating ${name} led to ${page.url()}, not its settings`);
  return id;
}

/**
 * The whole page as it is, into the test's output folder (test-results/e2e/…), for a person to look at. Scrolled to
 * the top first: a full-page picture of a scrolled page paints the sticky header over its middle.
 */
export async function screenshotPage(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

export async function openSettingsTab(page: Page, tab: string) {
  await page.getByRole("navigation", { name: "Organization settings" }).getByRole("link", { name: tab }).click();
}

/** Invites `email` from the organization settings page the page is on, and waits for the confirmation. */
export async function invite(page: Page, email: string, role: "member" | "admin") {
  await openSettingsTab(page, "Invitations");
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption(role);
  await page.getByRole("button", { name: "Send invitation", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: `Invitation sent to ${email}` })).toBeVisible();
  await expect(page.getByRole("button", { name: `Resend invitation to ${email}` })).toBeVisible();
  // The form clears itself once the list is fresh; typing before that would be cleared with it.
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue("");
}

type Fixtures = { clientAddress: string; mailbox: Mailbox; user: TestUser };

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
  clientAddress: async ({}, use) => {
    await use(nextClientAddress());
  },
  extraHTTPHeaders: async ({ clientAddress }, use) => {
    await use({ "x-forwarded-for": clientAddress });
  },
  mailbox: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL });
    await use(new Mailbox(request));
    await request.dispose();
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  user: async ({}, use) => {
    await use(uniqueUser());
  },
});

/**
 * Signs `owner` up, creates an organization and subscribes it to Pro monthly through the sandbox's hosted checkout
 * (the payer's e-mail comes prefilled); ends on its billing page, the new plan confirmed.
 */
export async function ownerOnPro(page: Page, mailbox: Mailbox, owner: TestUser, organizationName: string) {
  await signUpAndVerify(page, mailbox, owner);
  await page.goto("/organizations/new");
  await page.getByLabel("Name", { exact: true }).fill(organizationName);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByRole("heading", { name: organizationName })).toBeVisible();
  await page.getByRole("navigation", { name: "Organization settings" }).getByRole("link", { name: "Billing" }).click();
  await page.getByRole("button", { name: "Upgrade to Pro" }).click();
  await page
    .getByRole("dialog", { name: "Subscribe to Pro" })
    .getByRole("button", { name: "Continue to payment" })
    .click();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(owner.email);
  await page.getByLabel("Name", { exact: true }).fill(owner.name);
  await page.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Pay $20.00" }).click();
  await expect(page.getByRole("status").filter({ hasText: "You are now on Pro" })).toBeVisible({ timeout: 20_000 });
}

/**
 * Reloads the page until its payments list shows `payment`: an order reaches Atrium by the provider's webhook, some
 * time after the action that made it. Each reload first waits for the list to load (its table or its empty state),
 * however slow the machine, so only the payment's own arrival is retried.
 */
export async function reloadUntilListed(page: Page, payment: Locator): Promise<void> {
  const loaded = page.getByRole("table", { name: "Payments" }).or(page.getByText("No payments yet"));
  await expect(async () => {
    await page.reload();
    await expect(loaded.first()).toBeVisible();
    await expect(payment).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });
}

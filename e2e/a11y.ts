import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";
import type { AxeResults, Result } from "axe-core";
import { invitationLink, type Mailbox } from "./fixtures";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * WCAG 2.0, 2.1 and 2.2 A/AA, plus axe's best practices (landmarks, one main heading, unique names…).
 * `label-content-name-mismatch` (WCAG 2.5.3: a control's name contains its visible text) is marked experimental in
 * axe, so the tags alone do not run it; it is switched on by name.
 */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** One line per failing element: rule, impact, where, and axe's summary of what to fix. */
function describe(violations: Result[]): string {
  return violations
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `- ${violation.id} (${violation.impact ?? "unknown impact"}) at ${node.target.join(" ")}: ${violation.help}\n    ${(node.failureSummary ?? "").replace(/\n/g, "\n    ")}`,
      ),
    )
    .join("\n");
}

/**
 * Runs axe-core on the whole page as it is now (open menus and dialogs included) and returns the violations as
 * readable text, "" when there are none, so a test can `expect(await axeViolations(page)).toBe("")` and show
 * every problem at once.
 */
export async function axeViolations(page: Page): Promise<string> {
  // Evaluated rather than added as a <script>: the app's CSP refuses inline scripts, and pages are checked with it on.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe.run(
        document,
        {
          runOnly: { type: "tag", values: tags },
          rules: { "label-content-name-mismatch": { enabled: true } },
          resultTypes: ["violations"],
        },
      ),
    TAGS,
  );
  return describe(results.violations);
}

/** A page of the app and what shows once it has loaded (a heading's exact name). */
export type PageVisit = { path: string; heading: string | RegExp };

/** Every page a signed-out visitor can open. */
export const SIGNED_OUT_PAGES: PageVisit[] = [
  { path: "/", heading: "The foundation for your SaaS" },
  { path: "/sign-in", heading: "Sign in" },
  { path: "/sign-up", heading: "Create your account" },
  { path: "/forgot-password", heading: "Forgot your password?" },
  { path: "/reset-password?token=x", heading: "Choose a new password" },
  { path: "/check-email?email=someone%40example.test", heading: "Check your inbox" },
  { path: "/auth/error", heading: /./ },
  { path: "/invitations/no-such-invitation", heading: "Invitation not found" },
  { path: "/no-such-page", heading: "Page not found" },
  { path: "/dev/mail", heading: "Dev mailbox" },
];

/** Every page an organization owner can open (the home page, account settings, every organization settings tab). */
export function ownerPages(organizationId: string, name: string, organizationName: string): PageVisit[] {
  const settings = `/organizations/${organizationId}/settings`;
  return [
    { path: "/", heading: `Welcome, ${name}` },
    { path: "/account", heading: "Profile" },
    { path: "/account/sign-in-methods", heading: "Sign-in methods" },
    { path: "/account/password", heading: "Change password" },
    { path: "/account/sessions", heading: "Sessions" },
    { path: "/account/delete", heading: "Delete account" },
    { path: "/organizations/new", heading: "Create an organization" },
    { path: settings, heading: "General" },
    { path: `${settings}/members`, heading: "Members" },
    { path: `${settings}/invitations`, heading: "Invite someone" },
    { path: `${settings}/teams`, heading: organizationName },
    { path: `${settings}/billing`, heading: "Plans" },
    { path: `${settings}/audit-log`, heading: "Audit log" },
    { path: `${settings}/security`, heading: "Require a second factor" },
    { path: `${settings}/sso`, heading: "Single sign-on" },
    { path: `${settings}/danger`, heading: "Delete organization" },
  ];
}

/** Every page of the admin console: the lists, one user, one organization. */
export function adminPages(
  userId: string,
  userName: string,
  organizationId: string,
  organizationName: string,
): PageVisit[] {
  return [
    { path: "/admin", heading: "Users" },
    { path: `/admin/users/${userId}`, heading: userName },
    { path: "/admin/organizations", heading: "Organizations" },
    { path: `/admin/organizations/${organizationId}`, heading: organizationName },
    { path: "/admin/audit-log", heading: "Audit log" },
  ];
}

/** Opens a page and waits until it has loaded: its heading shows and no spinner, skeleton or busy region is left. */
export async function visit(page: Page, { path, heading }: PageVisit): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: heading, exact: typeof heading === "string" }).first()).toBeVisible();
  await expect(page.locator('.animate-spin, .animate-pulse, [aria-busy="true"]')).toHaveCount(0);
}

/** Calls one of better-auth's endpoints as the page's signed-in person (same cookies) and returns its answer. */
async function authCall<T>(page: Page, endpoint: string, data: object): Promise<T> {
  const origin = new URL(page.url()).origin;
  const response = await page.request.post(`/api/auth/${endpoint}`, { data, headers: { origin } });
  expect(response.status(), `POST /api/auth/${endpoint}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/** Creates an organization owned by the page's person and returns its id. */
export async function createOrganization(page: Page, name: string, slug: string): Promise<string> {
  return (await authCall<{ id: string }>(page, "organization/create", { name, slug })).id;
}

/**
 * Registers an OIDC connection of the organization for `domain` against the development identity provider (its
 * domain left unverified), as the SSO settings would; returns its provider id.
 */
export async function registerSsoConnection(page: Page, organizationId: string, domain: string): Promise<string> {
  const clientPage = await (await page.request.get("/dev/oidc/sso-client")).text();
  const clientSecret = /Client secret<\/strong><br><code>([^<]+)<\/code>/.exec(clientPage)?.[1] ?? "";
  const origin = new URL(page.url()).origin;
  const providerId = `${domain.split(".")[0]}-oidc`;
  await authCall(page, "sso/register", {
    providerId,
    issuer: `${origin}/dev/oidc`,
    domain,
    organizationId,
    oidcConfig: { clientId: "atrium-sso", clientSecret },
  });
  return providerId;
}

/** Creates a team in the organization and returns its id. */
export async function createTeam(page: Page, organizationId: string, name: string): Promise<string> {
  return (await authCall<{ id: string }>(page, "organization/create-team", { organizationId, name })).id;
}

/**
 * Makes `member` (signed in on `memberPage`) a member of the owner's organization the way people do it: the owner
 * invites their e-mail, they accept the mailed invitation.
 */
export async function addMember(
  ownerPage: Page,
  memberPage: Page,
  mailbox: Mailbox,
  organizationId: string,
  email: string,
): Promise<void> {
  await authCall(ownerPage, "organization/invite-member", { organizationId, email, role: "member" });
  const invitationId = new URL(await invitationLink(mailbox, email)).pathname.split("/").pop()!;
  await authCall(memberPage, "organization/accept-invitation", { invitationId });
}

/** Puts a member of the organization into one of its teams. */
export async function addTeamMember(page: Page, organizationId: string, teamId: string, userId: string): Promise<void> {
  await authCall(page, "organization/add-team-member", { organizationId, teamId, userId });
}

/** The signed-in person's user id. */
export async function currentUserId(page: Page): Promise<string> {
  const response = await page.request.get("/api/auth/get-session");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { user: { id: string } }).user.id;
}

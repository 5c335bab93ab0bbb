import { QueryClientProvider } from "@tanstack/react-query";
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from "@tanstack/react-router";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OrganizationSso } from "../../../../../common/sso.schemas";
import { createQueryClient } from "../../../../lib/query-client";
import { OrganizationSettingsLayout } from "./organization-settings-layout";
import { SsoPage } from "./sso-page";

// The organization and the caller's role come from better-auth's client; the SSO listing and the meta from the app's API.
const organization = vi.hoisted(() => ({ getFullOrganization: vi.fn(), getActiveMemberRole: vi.fn() }));
vi.mock("../../../../lib/auth-client", () => ({ authClient: { organization } }));

const ORG = "org_1";
const SSO = `/api/organizations/${ORG}/sso`;
const serviceProvider = {
  oidcRedirectUri: "http://localhost/api/auth/sso/callback/rocket-club-oidc",
  acsUrl: "http://localhost/api/auth/sso/saml2/sp/acs/rocket-club-oidc",
  entityId: "http://localhost/api/auth/sso/saml2/sp/metadata?providerId=rocket-club-oidc",
  metadataUrl: "http://localhost/api/auth/sso/saml2/sp/metadata?providerId=rocket-club-oidc",
};
const pending: OrganizationSso = {
  organizationSlug: "rocket-club",
  requireSso: false,
  allowDomainJoin: false,
  providers: [
    {
      providerId: "rocket-club-oidc",
      type: "oidc",
      issuer: "https://login.rocket.test",
      domain: "rocket.test",
      domainVerified: false,
      domainRecord: { type: "TXT", name: "_atrium-sso-rocket-club-oidc.rocket.test", value: "atrium-sso=abc" },
      clientId: "client",
      firstSignInAt: null,
      serviceProvider,
    },
  ],
};
const verified: OrganizationSso = {
  ...pending,
  providers: [{ ...pending.providers[0]!, domainVerified: true, domainRecord: null }],
};
/** Verified, and someone signed in through it since: the server recorded its test. */
const tested: OrganizationSso = {
  ...verified,
  providers: [{ ...verified.providers[0]!, firstSignInAt: "2026-03-01T10:00:00.000Z" }],
};

let ssoRequests: number;
let policyChanges: Array<Record<string, boolean>> = [];
let ssoAnswer: { status: number; body: unknown };
/** What PATCH …/security answers instead of the change sent, when set. */
let securityRefusal: { status: number; body: unknown } | undefined;

beforeEach(() => {
  ssoRequests = 0;
  policyChanges = [];
  ssoAnswer = { status: 200, body: pending };
  securityRefusal = undefined;
  organization.getFullOrganization.mockReset().mockResolvedValue({
    data: {
      id: ORG,
      name: "Rocket Club",
      slug: "rocket-club",
      logo: null,
      createdAt: new Date(),
      metadata: null,
      members: [],
      invitations: [],
      teams: [],
    },
    error: null,
  });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(new URL(String(input instanceof Request ? input.url : input), "http://localhost"), {
        method: input instanceof Request ? input.method : init?.method,
        body: input instanceof Request ? await input.text() : init?.body,
      });
      const url = new URL(request.url);
      let body: unknown = { code: "NOT_FOUND", message: `no route ${url.pathname}` };
      let status = 404;
      if (url.pathname === "/api/meta") [body, status] = [{ organizations: { isDeletionDisabled: false } }, 200];
      if (url.pathname === `/api/organizations/${ORG}/security` && request.method === "PATCH") {
        const sent = (await request.json()) as Record<string, boolean>;
        policyChanges.push(sent);
        const security = { requireTwoFactor: false, callerHasSecondFactor: false, requireSso: false };
        [body, status] = [{ ...security, allowDomainJoin: false, hasVerifiedSsoProvider: true, ...sent }, 200];
        if (securityRefusal) [body, status] = [securityRefusal.body, securityRefusal.status];
      }
      if (url.pathname === SSO) {
        ssoRequests++;
        [body, status] = [ssoAnswer.body, ssoAnswer.status];
      }
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderSettings(role: string, at: string) {
  organization.getActiveMemberRole.mockResolvedValue({ data: { role }, error: null });
  const rootRoute = createRootRoute();
  const settingsRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: "/organizations/$organizationId/settings",
    component: function Settings() {
      return <OrganizationSettingsLayout organizationId={settingsRoute.useParams().organizationId} userId="user_me" />;
    },
  });
  const generalRoute = createRoute({
    getParentRoute: () => settingsRoute,
    path: "/",
    component: () => <p>General settings</p>,
  });
  const ssoRoute = createRoute({
    getParentRoute: () => settingsRoute,
    path: "/sso",
    validateSearch: (search: Record<string, unknown>) => ({
      test: typeof search.test === "string" ? search.test : undefined,
      error: typeof search.error === "string" ? search.error : undefined,
    }),
    component: function Sso() {
      return <SsoPage search={ssoRoute.useSearch()} />;
    },
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([settingsRoute.addChildren([generalRoute, ssoRoute])]),
    history: createMemoryHistory({ initialEntries: [`/organizations/${ORG}/settings${at}`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const requireSwitch = () => screen.getByRole("switch", { name: /^Members must sign in with SSO/ });

describe("the organization's single sign-on", () => {
  it("is not a tab for members, and tells a member who opens it who can set it up, without asking the server", async () => {
    renderSettings("member", "/");
    const tabs = await screen.findByRole("navigation", { name: "Organization settings" });
    within(tabs).getByRole("link", { name: "Members" });
    expect(within(tabs).queryByRole("link", { name: "Single sign-on" })).toBeNull();

    renderSettings("member", "/sso");
    await screen.findByText("Only owners and admins can set up single sign-on.");
    expect(ssoRequests).toBe(0);
  });

  it("lists a connection with its pending domain, and keeps Require SSO off until one is verified and tested", async () => {
    renderSettings("admin", "/sso");
    const tabs = await screen.findByRole("navigation", { name: "Organization settings" });
    expect(within(tabs).getByRole("link", { name: "Single sign-on" }).getAttribute("aria-current")).toBe("page");
    const list = await screen.findByRole("list", { name: "Connections" });
    within(list).getByText("rocket.test");
    within(list).getByText("Pending verification");
    expect((requireSwitch() as HTMLInputElement).disabled).toBe(true);

    // Its setup goes on at the domain: the record to publish, with its Copy buttons.
    await userEvent.setup().click(within(list).getByRole("button", { name: "Continue setup of rocket.test" }));
    expect((screen.getByRole("textbox", { name: "TXT record value" }) as HTMLInputElement).value).toBe(
      "atrium-sso=abc",
    );
    screen.getByRole("button", { name: "Copy TXT record name" });
    screen.getByRole("heading", { name: "Step 5: Test the connection" });
    screen.getByText("Verify the domain first.");
  });

  it("says a test sign-in worked, and lets Require SSO be turned on once the server recorded it", async () => {
    ssoAnswer = { status: 200, body: tested };
    renderSettings("owner", "/sso?test=rocket-club-oidc");
    expect((await screen.findByText("The connection works")).closest("[role=status]")).not.toBeNull();
    await screen.findByText("Tested");
    expect((requireSwitch() as HTMLInputElement).disabled).toBe(false);
    cleanup();

    // The address alone proves nothing: a connection the server has no sign-in for is not tested.
    ssoAnswer = { status: 200, body: verified };
    renderSettings("owner", "/sso?test=rocket-club-oidc");
    await screen.findByText("The connection works");
    expect(screen.queryByText("Tested")).toBeNull();
    expect((requireSwitch() as HTMLInputElement).disabled).toBe(true);
  });

  it("words the server's refusal to require SSO before a recorded test, and puts the switch back", async () => {
    ssoAnswer = { status: 200, body: tested };
    securityRefusal = {
      status: 409,
      body: {
        code: "SSO_SIGN_IN_TEST_REQUIRED",
        message: "Sign in through a verified SSO provider once, as a test, before requiring SSO",
      },
    };
    renderSettings("owner", "/sso");
    await screen.findByText("Tested");
    await userEvent.setup().click(requireSwitch());
    await screen.findByText(
      "Test a verified connection first: sign in through it once, so that nobody is locked out, then require SSO.",
    );
    expect(policyChanges).toEqual([{ requireSso: true }]);
    expect((requireSwitch() as HTMLInputElement).checked).toBe(false);
  });

  it("offers joining by verified domain once a domain is verified, and turns it on", async () => {
    renderSettings("admin", "/sso");
    const joinSwitch = async () => screen.findByRole("switch", { name: /^Let people on verified domains join/ });
    expect(((await joinSwitch()) as HTMLInputElement).disabled).toBe(true);
    screen.getByText("Verify a connection's domain first: only a domain you proved is offered.");
    cleanup();

    ssoAnswer = { status: 200, body: verified };
    renderSettings("owner", "/sso");
    await userEvent.setup().click(await joinSwitch());
    await screen.findByText("On: anyone with a verified @rocket.test address can join.");
    expect(policyChanges).toEqual([{ allowDomainJoin: true }]);
  });

  it("says a test sign-in failed, in words, without taking the address's text", async () => {
    ssoAnswer = { status: 200, body: verified };
    renderSettings("owner", "/sso?test=rocket-club-oidc&error=access_denied");
    await screen.findByText("The test sign-in did not finish");
    screen.getByText("You cancelled at the identity provider. Test again when you are ready.");
    expect((requireSwitch() as HTMLInputElement).disabled).toBe(true);
    cleanup();

    // The server's refusal of a SAML response, which it sends back here for a test sign-in.
    renderSettings("owner", "/sso?test=rocket-club-oidc&error=SSO_SAML_RESPONSE_REFUSED");
    await screen.findByText("The test sign-in did not finish");
    screen.getByText(/^Your identity provider's answer was refused: its signature, its validity/);
    cleanup();

    // A code the page does not know reads generically: nothing of the address is shown.
    for (const unknown of ["Call%20us%20at%20555", "constructor"]) {
      renderSettings("owner", `/sso?test=rocket-club-oidc&error=${unknown}`);
      await screen.findByText("The test sign-in did not finish");
      screen.getByText(/^The identity provider or Atrium refused the sign-in/);
      expect(screen.queryByText(/555/)).toBeNull();
      cleanup();
    }
  });

  it("shows an error with a way to try again when the listing fails", async () => {
    ssoAnswer = { status: 500, body: { code: "INTERNAL_SERVER_ERROR", message: "boom" } };
    renderSettings("owner", "/sso");
    await screen.findByText("Single sign-on could not load", {}, { timeout: 5000 });
    ssoAnswer = { status: 200, body: { ...pending, providers: [] } };
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    await screen.findByText("No connection yet. Add one to let your people sign in with their work account.");
  });
});

import { QueryClientProvider } from "@tanstack/react-query";
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from "@tanstack/react-router";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OrganizationScim, ScimTokenSummary } from "../../../../../common/scim.schemas";
import { createQueryClient } from "../../../../lib/query-client";
import { DirectorySyncPage } from "./directory-sync-page";
import { OrganizationSettingsLayout } from "./organization-settings-layout";

// The organization and the caller's role come from better-auth's client; the tokens from the app's API.
const organization = vi.hoisted(() => ({ getFullOrganization: vi.fn(), getActiveMemberRole: vi.fn() }));
vi.mock("../../../../lib/auth-client", () => ({ authClient: { organization } }));

const ORG = "org_1";
const SCIM = `/api/organizations/${ORG}/scim`;
const BASE_URL = "http://localhost/api/auth/scim/v2";
const okta: ScimTokenSummary = {
  id: "tok_1",
  name: "okta",
  createdAt: "2026-11-30T10:00:00.000Z",
  lastUsedAt: null,
  revokedAt: null,
};

let listing: { status: number; body: unknown };
let requests: Array<{ method: string; path: string; body: unknown }>;

beforeEach(() => {
  requests = [];
  listing = { status: 200, body: { baseUrl: BASE_URL, tokens: [] } satisfies OrganizationScim };
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
      const request = input instanceof Request ? input : new Request(new URL(String(input), "http://localhost"), init);
      const { pathname } = new URL(request.url);
      const text = await request.text();
      requests.push({ method: request.method, path: pathname, body: text ? JSON.parse(text) : null });
      let answer: { status: number; body: unknown } = { status: 404, body: { code: "NOT_FOUND", message: "no" } };
      if (pathname === "/api/meta") answer = { status: 200, body: { organizations: { isDeletionDisabled: false } } };
      if (pathname === SCIM) answer = listing;
      if (pathname === "/api/auth/scim/generate-token") {
        const token = { ...okta, name: (JSON.parse(text) as { providerId: string }).providerId };
        listing = { status: 200, body: { baseUrl: BASE_URL, tokens: [token] } };
        answer = { status: 200, body: { scimToken: "atrium_scim_secret123", token } };
      }
      if (pathname === `${SCIM}/tokens/tok_1` && request.method === "DELETE") {
        const revoked = { ...okta, revokedAt: "2026-12-01T10:00:00.000Z" };
        listing = { status: 200, body: { baseUrl: BASE_URL, tokens: [revoked] } };
        answer = { status: 200, body: revoked };
      }
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { "content-type": "application/json" },
      });
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
  const directoryRoute = createRoute({
    getParentRoute: () => settingsRoute,
    path: "/directory-sync",
    component: DirectorySyncPage,
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([settingsRoute.addChildren([generalRoute, directoryRoute])]),
    history: createMemoryHistory({ initialEntries: [`/organizations/${ORG}/settings${at}`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const scimRequests = () => requests.filter((request) => request.path.includes("scim"));

describe("the organization's directory sync", () => {
  it("is not a tab for members, and tells a member who opens it who can set it up, without asking the server", async () => {
    renderSettings("member", "/");
    const tabs = await screen.findByRole("navigation", { name: "Organization settings" });
    within(tabs).getByRole("link", { name: "Members" });
    expect(within(tabs).queryByRole("link", { name: "Directory sync" })).toBeNull();

    renderSettings("member", "/directory-sync");
    await screen.findByText("Only owners and admins can set up directory sync.");
    expect(scimRequests()).toEqual([]);
  });

  it("shows the base URL, creates a token from the keyboard and shows its secret once, with a Copy button", async () => {
    renderSettings("admin", "/directory-sync");
    const tabs = await screen.findByRole("navigation", { name: "Organization settings" });
    expect(within(tabs).getByRole("link", { name: "Directory sync" }).getAttribute("aria-current")).toBe("page");
    expect(((await screen.findByRole("textbox", { name: "SCIM base URL" })) as HTMLInputElement).value).toBe(BASE_URL);
    screen.getByText("No token yet. Create one to connect your directory.");

    const user = userEvent.setup();
    await user.type(screen.getByRole("textbox", { name: "Connection name" }), "entra-id{Enter}");
    expect(((await screen.findByRole("textbox", { name: "Token" })) as HTMLInputElement).value).toBe(
      "atrium_scim_secret123",
    );
    screen.getByRole("button", { name: "Copy Token" });
    screen.getByText("Copy it now and paste it into your directory: it will not be shown again.");
    expect(requests).toContainEqual({
      method: "POST",
      path: "/api/auth/scim/generate-token",
      body: { providerId: "entra-id", organizationId: ORG },
    });
    const list = await screen.findByRole("list", { name: "Tokens" });
    within(list).getByText("entra-id");
    within(list).getByText("Never used");

    await user.click(screen.getByRole("button", { name: "I have copied it" }));
    expect(screen.queryByRole("textbox", { name: "Token" })).toBeNull();
  });

  it("refuses a blank name without asking the server", async () => {
    renderSettings("owner", "/directory-sync");
    await screen.findByRole("textbox", { name: "SCIM base URL" });
    await userEvent.setup().click(screen.getByRole("button", { name: "Create token" }));
    await screen.findByText("Enter a name for the connection");
    expect(requests.some((request) => request.path === "/api/auth/scim/generate-token")).toBe(false);
  });

  it("revokes a token after confirmation", async () => {
    listing = { status: 200, body: { baseUrl: BASE_URL, tokens: [okta] } };
    renderSettings("owner", "/directory-sync");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Revoke the token okta" }));
    const dialog = await screen.findByRole("dialog", { name: "Revoke the token okta?" });
    await user.click(within(dialog).getByRole("button", { name: "Revoke token" }));
    await screen.findByText("Revoked");
    expect(requests).toContainEqual({ method: "DELETE", path: `${SCIM}/tokens/tok_1`, body: null });
    expect(screen.queryByRole("button", { name: "Revoke the token okta" })).toBeNull();
  });

  it("shows an error with a way to try again when the listing fails", async () => {
    listing = { status: 500, body: { code: "INTERNAL_SERVER_ERROR", message: "boom" } };
    renderSettings("owner", "/directory-sync");
    await screen.findByText("Directory sync could not load", {}, { timeout: 5000 });
    listing = { status: 200, body: { baseUrl: BASE_URL, tokens: [] } };
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    await screen.findByText("No token yet. Create one to connect your directory.");
  });
});

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
import type { ApiKeySummary, CreatedApiKey } from "../../../../../common/api-key.schemas";
import { createQueryClient } from "../../../../lib/query-client";
import { ApiKeysPage } from "./api-keys-page";
import { OrganizationSettingsLayout } from "./organization-settings-layout";

// The organization and the caller's role come from better-auth's client; the keys and the meta from the app's API.
const organization = vi.hoisted(() => ({ getFullOrganization: vi.fn(), getActiveMemberRole: vi.fn() }));
vi.mock("../../../../lib/auth-client", () => ({ authClient: { organization } }));

const ORG = "org_1";
const KEYS = `/api/organizations/${ORG}/api-keys`;
const SECRET = "atr_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";
const listed: ApiKeySummary = {
  id: "key_1",
  name: "CI deploys",
  scopes: ["members:read"],
  prefix: "atr_012345",
  createdAt: "2026-11-30T10:00:00.000Z",
  expiresAt: null,
  lastUsedAt: null,
};

type Call = { method: string; path: string; body: unknown };
let calls: Call[];
let listAnswer: { status: number; body: unknown };

beforeEach(() => {
  calls = [];
  listAnswer = { status: 200, body: [] };
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
      const url = new URL(request.url, "http://localhost");
      const text = request.method === "GET" ? "" : await request.text();
      calls.push({ method: request.method, path: url.pathname, body: text ? JSON.parse(text) : null });
      let body: unknown = { code: "NOT_FOUND", message: `no route ${url.pathname}` };
      let status = 404;
      if (url.pathname === "/api/meta") [body, status] = [{ organizations: { isDeletionDisabled: false } }, 200];
      if (url.pathname === KEYS && request.method === "GET") [body, status] = [listAnswer.body, listAnswer.status];
      if (url.pathname === KEYS && request.method === "POST") {
        const created: CreatedApiKey = { ...listed, key: SECRET, name: "Nightly export", scopes: ["audit:read"] };
        [body, status] = [created, 201];
      }
      if (url.pathname === `${KEYS}/key_1` && request.method === "DELETE") return new Response(null, { status: 204 });
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
  const keysRoute = createRoute({ getParentRoute: () => settingsRoute, path: "/api-keys", component: ApiKeysPage });
  const router = createRouter({
    routeTree: rootRoute.addChildren([settingsRoute.addChildren([generalRoute, keysRoute])]),
    history: createMemoryHistory({ initialEntries: [`/organizations/${ORG}/settings${at}`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const keyRequests = () => calls.filter((call) => call.path.startsWith(KEYS));

describe("the organization's API keys", () => {
  it("is not a tab for members, and tells a member who opens it who manages keys, asking nothing", async () => {
    renderSettings("member", "/");
    const tabs = await screen.findByRole("navigation", { name: "Organization settings" });
    within(tabs).getByRole("link", { name: "Members" });
    expect(within(tabs).queryByRole("link", { name: "API keys" })).toBeNull();

    renderSettings("member", "/api-keys");
    await screen.findByText("Only owners and admins can manage API keys.");
    expect(keyRequests()).toEqual([]);
  });

  it("says so while loading, then when there is no key yet", async () => {
    renderSettings("admin", "/api-keys");
    const tabs = await screen.findByRole("navigation", { name: "Organization settings" });
    expect(within(tabs).getByRole("link", { name: "API keys" }).getAttribute("aria-current")).toBe("page");
    await screen.findByText("No API keys yet. Create one above.");
  });

  it("shows an error with a way to try again when the list fails", async () => {
    listAnswer = { status: 500, body: { code: "INTERNAL_ERROR", message: "boom" } };
    renderSettings("owner", "/api-keys");
    await screen.findByText("API keys could not load", {}, { timeout: 5000 });
    listAnswer = { status: 200, body: [listed] };
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    const list = await screen.findByRole("list", { name: "API keys" });
    within(list).getByText("CI deploys");
    within(list).getByText("atr_012345…");
    within(list).getByText(/Never used/);
  });

  it("creates a key from the keyboard, with scopes as checkboxes, and shows it once with a Copy button", async () => {
    renderSettings("owner", "/api-keys");
    await screen.findByText("No API keys yet. Create one above.");
    const user = userEvent.setup();
    // Without a scope the form says so and sends nothing.
    await user.click(screen.getByRole("textbox", { name: "Name" }));
    await user.keyboard("Nightly export");
    await user.keyboard("{Enter}");
    await screen.findByText("Choose at least one scope");
    expect(keyRequests().filter((call) => call.method === "POST")).toEqual([]);

    // Every scope is offered, the write scopes next to their reads, each with what it allows.
    const offered = within(screen.getByRole("group", { name: "Scopes" })).getAllByRole("checkbox");
    expect(offered.map((box) => box.closest("label")?.querySelector(".font-mono")?.textContent)).toEqual([
      "members:read",
      "members:write",
      "invitations:write",
      "teams:read",
      "teams:write",
      "billing:read",
      "usage:write",
      "audit:read",
    ]);
    screen.getByRole("checkbox", { name: /teams:write.*Create, rename and delete teams/ });

    const auditScope = screen.getByRole("checkbox", { name: /audit:read/ });
    auditScope.focus();
    await user.keyboard(" ");
    expect((auditScope as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole("button", { name: "Create API key" }));

    const dialog = await screen.findByRole("dialog", { name: "Copy your new API key" });
    within(dialog).getByText(/This is the only time the key is shown/);
    expect((within(dialog).getByRole("textbox", { name: "API key" }) as HTMLInputElement).value).toBe(SECRET);
    expect(keyRequests().find((call) => call.method === "POST")?.body).toEqual({
      name: "Nightly export",
      scopes: ["audit:read"],
    });
    await user.click(within(dialog).getByRole("button", { name: "Copy API key" }));
    // user-event stands in for the clipboard: what the page wrote can be read back.
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
  });

  it("revokes a key after asking, then hands focus to the list's title", async () => {
    listAnswer = { status: 200, body: [listed] };
    renderSettings("owner", "/api-keys");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Revoke CI deploys" }));
    const dialog = await screen.findByRole("dialog", { name: "Revoke CI deploys?" });
    listAnswer = { status: 200, body: [] };
    await user.click(within(dialog).getByRole("button", { name: "Revoke key" }));
    await screen.findByText("No API keys yet. Create one above.");
    expect(
      keyRequests()
        .filter((call) => call.method === "DELETE")
        .map((call) => call.path),
    ).toEqual([`${KEYS}/key_1`]);
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole("heading", { name: "API keys" })));
  });
});

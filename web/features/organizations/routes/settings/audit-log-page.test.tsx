import { QueryClientProvider } from "@tanstack/react-query";
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from "@tanstack/react-router";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AUDIT_ACTIONS, type AuditEntry, type AuditLogPage } from "../../../../../common/audit.schemas";
import { createQueryClient } from "../../../../lib/query-client";
import { OrganizationAuditLogPage } from "./audit-log-page";
import { OrganizationSettingsLayout } from "./organization-settings-layout";

// The organization and the caller's role come from better-auth's client; the log and the app's meta from the app's API (fetch).
const organization = vi.hoisted(() => ({ getFullOrganization: vi.fn(), getActiveMemberRole: vi.fn() }));
vi.mock("../../../../lib/auth-client", () => ({ authClient: { organization } }));

const ORG = "org_1";
const LOG = `/api/organizations/${ORG}/audit-log`;

const roleChange: AuditEntry = {
  id: "evt_1",
  createdAt: "2026-03-05T10:00:00.000Z",
  action: "member.role_changed",
  actor: { type: "user", id: "user_owner", label: "olga@example.test" },
  impersonator: null,
  target: { type: "user", id: "user_ann", label: "ann@example.test" },
  organization: { id: ORG, name: "Rocket Club" },
  ipAddress: "203.0.113.7",
  userAgent:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
  reason: null,
  details: { from: "member", to: "admin" },
};

const teamByKey: AuditEntry = {
  ...roleChange,
  id: "evt_2",
  action: "team.created",
  actor: { type: "api_key", id: "key_1", label: "CI deploys (atr_Gz2k9Q…)" },
  target: { type: "team", id: "team_1", label: "Platform" },
  ipAddress: "198.51.100.4",
  userAgent: "curl/8.5.0",
  details: null,
};

let logRequests: URL[];

beforeEach(() => {
  logRequests = [];
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
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), "http://localhost");
      let body: unknown = { code: "NOT_FOUND", message: `no route ${url.pathname}` };
      let status = 404;
      if (url.pathname === "/api/meta") [body, status] = [{ organizations: { isDeletionDisabled: false } }, 200];
      if (url.pathname === LOG) {
        logRequests.push(url);
        const page = { entries: [roleChange, teamByKey], total: 2, limit: 25, offset: 0 } satisfies AuditLogPage;
        [body, status] = [page, 200];
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
  const auditLogRoute = createRoute({
    getParentRoute: () => settingsRoute,
    path: "/audit-log",
    validateSearch: z.object({
      action: z.enum(AUDIT_ACTIONS).optional(),
      from: z.string().optional(),
      to: z.string().optional(),
      limit: z.number().default(25),
      offset: z.number().default(0),
    }),
    component: function AuditLog() {
      const navigate = auditLogRoute.useNavigate();
      return (
        <OrganizationAuditLogPage
          search={auditLogRoute.useSearch()}
          onSearchChange={(next) => navigate({ to: ".", search: next })}
        />
      );
    },
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([settingsRoute.addChildren([generalRoute, auditLogRoute])]),
    history: createMemoryHistory({ initialEntries: [`/organizations/${ORG}/settings${at}`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router };
}

describe("the organization's audit log", () => {
  it("is not a tab for members, and tells a member who opens it who can see it, without asking the server", async () => {
    renderSettings("member", "/");
    const tabs = await screen.findByRole("navigation", { name: "Organization settings" });
    within(tabs).getByRole("link", { name: "Members" });
    expect(within(tabs).queryByRole("link", { name: "Audit log" })).toBeNull();

    renderSettings("member", "/audit-log");
    await screen.findByText("Only owners and admins can see the audit log");
    expect(logRequests).toEqual([]);
  });

  it("is a tab for owners, listing what changed, by whom and from where", async () => {
    renderSettings("owner", "/audit-log");
    const tabs = await screen.findByRole("navigation", { name: "Organization settings" });
    expect(within(tabs).getByRole("link", { name: "Audit log" }).getAttribute("aria-current")).toBe("page");
    const table = await screen.findByRole("table", { name: "Audit log" });
    within(table).getByText("Changed the role of ann@example.test from member to admin");
    within(table).getByText("olga@example.test");
    within(table).getByText("Safari on macOS");
    // An API key acts as itself: named as a key, never as the person who made it.
    within(table).getByText("Created team Platform");
    within(table).getByText("API key: CI deploys (atr_Gz2k9Q…)");
    expect(table.querySelector("time")?.getAttribute("dateTime")).toBe(roleChange.createdAt);
    // An organization's own log has no organization column.
    expect(within(table).queryByRole("columnheader", { name: "Organization" })).toBeNull();
  });

  it("exports the filters in force as CSV, and asks the list for the same", async () => {
    const user = userEvent.setup();
    renderSettings("admin", "/audit-log?from=2026-03-01&to=2026-03-31");
    await screen.findByRole("table", { name: "Audit log" });
    const exportLink = () => screen.getByRole("link", { name: "Export CSV" });
    expect(exportLink().getAttribute("href")).toBe(`${LOG}/export?from=2026-03-01&to=2026-03-31`);
    expect(exportLink().hasAttribute("download")).toBe(true);

    await user.selectOptions(screen.getByLabelText("Action"), "Member role changed");
    await waitFor(() =>
      expect(exportLink().getAttribute("href")).toBe(
        `${LOG}/export?action=member.role_changed&from=2026-03-01&to=2026-03-31`,
      ),
    );
    await waitFor(() => expect(logRequests.at(-1)?.searchParams.get("action")).toBe("member.role_changed"));
    const last = logRequests.at(-1);
    expect([last?.searchParams.get("from"), last?.searchParams.get("to"), last?.searchParams.get("offset")]).toEqual([
      "2026-03-01",
      "2026-03-31",
      "0",
    ]);
  });
});

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
import type { WebhookDeliveryAttempt, WebhookEndpoint } from "../../../../../common/webhook.schemas";
import { createQueryClient } from "../../../../lib/query-client";
import { OrganizationSettingsLayout } from "./organization-settings-layout";
import { WebhooksPage } from "./webhooks-page";

// The organization and the caller's role come from better-auth's client; the webhooks from the app's API.
const organization = vi.hoisted(() => ({ getFullOrganization: vi.fn(), getActiveMemberRole: vi.fn() }));
vi.mock("../../../../lib/auth-client", () => ({ authClient: { organization } }));

const ORG = "org_1";
const BASE = `/api/organizations/${ORG}/webhooks`;
const endpoint: WebhookEndpoint = {
  id: "wh_1",
  url: "https://crm.example.com/hooks",
  description: "CRM sync",
  events: ["member.added"],
  enabled: true,
  disabledReason: null,
  createdAt: "2026-12-01T10:00:00.000Z",
};
const attempt: WebhookDeliveryAttempt = {
  id: "att_1",
  deliveryId: "msg_1",
  eventType: "member.added",
  attempt: 2,
  attemptedAt: "2026-12-01T10:05:00.000Z",
  statusCode: 500,
  durationMs: 120,
  responseExcerpt: "receiver broke",
  error: null,
  deliveryStatus: "pending",
};

let calls: Array<{ method: string; path: string; body: unknown }>;
let endpoints: WebhookEndpoint[];
let deliveries: WebhookDeliveryAttempt[];
/** WEBHOOK_RETENTION_DAYS, as /api/meta tells it. */
let retentionDays: number;

beforeEach(() => {
  calls = [];
  endpoints = [endpoint];
  deliveries = [attempt];
  retentionDays = 30;
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
      const method = request.method;
      const text = await request.text();
      calls.push({ method, path: pathname, body: text ? JSON.parse(text) : undefined });
      const json = (body: unknown, status = 200) =>
        new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
      if (pathname === "/api/meta")
        return json({
          organizations: { isDeletionDisabled: false },
          webhooks: { deliveryRetentionDays: retentionDays },
        });
      if (pathname === BASE && method === "GET") return json(endpoints);
      if (pathname === BASE && method === "POST") {
        const body = JSON.parse(text) as { url: string };
        if (body.url.includes("169.254"))
          return json(
            {
              code: "WEBHOOK_URL_REFUSED",
              message: "This URL points to a private or reserved address: webhooks are sent to public addresses only",
            },
            400,
          );
        endpoints = [...endpoints, { ...endpoint, id: "wh_2", url: body.url, description: null }];
        return json({ id: "wh_2", secret: "whsec_bmV3LXNlY3JldA==" }, 201);
      }
      if (pathname === `${BASE}/wh_1` && method === "DELETE") {
        endpoints = endpoints.filter((each) => each.id !== "wh_1");
        return new Response(null, { status: 204 });
      }
      if (pathname === `${BASE}/wh_1/secret`) return json({ id: "wh_1", secret: "whsec_c2VjcmV0" });
      if (pathname === `${BASE}/wh_1/test`) return json({ deliveryId: "msg_test" }, 202);
      if (pathname === `${BASE}/wh_1/deliveries`) return json(deliveries);
      if (pathname === `${BASE}/wh_1/deliveries/msg_1/redeliver`) return json({ deliveryId: "msg_1" }, 202);
      return json({ code: "NOT_FOUND", message: `no route ${pathname}` }, 404);
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
  const generalRoute = createRoute({ getParentRoute: () => settingsRoute, path: "/", component: () => <p>General</p> });
  const webhooksRoute = createRoute({
    getParentRoute: () => settingsRoute,
    path: "/webhooks",
    component: WebhooksPage,
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([settingsRoute.addChildren([generalRoute, webhooksRoute])]),
    history: createMemoryHistory({ initialEntries: [`/organizations/${ORG}/settings${at}`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("the organization's webhooks", () => {
  it("is not a tab for members, and tells a member who opens it who may manage it, asking nothing", async () => {
    renderSettings("member", "/");
    const tabs = await screen.findByRole("navigation", { name: "Organization settings" });
    expect(within(tabs).queryByRole("link", { name: "Webhooks" })).toBeNull();
    renderSettings("member", "/webhooks");
    await screen.findByText("Only owners and admins can manage webhooks.");
    expect(calls.filter((call) => call.path.startsWith(BASE))).toEqual([]);
  });

  it("adds an endpoint, shows its secret once, and shows the server's refusal in words", async () => {
    renderSettings("admin", "/webhooks");
    const user = userEvent.setup();
    await screen.findByText("https://crm.example.com/hooks");
    await user.type(screen.getByRole("textbox", { name: "Endpoint URL" }), "http://169.254.169.254/");
    await user.click(screen.getByRole("checkbox", { name: /A team was created/ }));
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    await screen.findByText(
      "This URL points to a private or reserved address. Webhooks are sent to public addresses only.",
    );
    const field = screen.getByRole("textbox", { name: "Endpoint URL" });
    await user.clear(field);
    await user.type(field, "https://erp.example.com/in");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    const dialog = await screen.findByRole("dialog", { name: "Copy the signing secret" });
    within(dialog).getByText(
      "Verify each delivery to https://erp.example.com/in with this secret. Its Reveal secret button shows it again.",
    );
    expect((within(dialog).getByRole("textbox", { name: "Signing secret" }) as HTMLInputElement).value).toBe(
      "whsec_bmV3LXNlY3JldA==",
    );
    expect(calls.filter((call) => call.method === "POST" && call.path === BASE).at(-1)?.body).toEqual({
      url: "https://erp.example.com/in",
      events: ["team.created"],
    });
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.queryByDisplayValue("whsec_bmV3LXNlY3JldA==")).toBeNull();
    within(screen.getByRole("list", { name: "Endpoints" })).getByRole("heading", {
      name: "https://erp.example.com/in",
    });
  });

  it("says when there is no endpoint yet, and what is missing on its field, asking the server nothing", async () => {
    endpoints = [];
    renderSettings("owner", "/webhooks");
    const user = userEvent.setup();
    await screen.findByText("No endpoints yet. Add one above.");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    const url = screen.getByRole("textbox", { name: "Endpoint URL" });
    expect(url.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(url.getAttribute("aria-describedby")!)?.textContent).toBe(
      "Enter an http or https URL",
    );
    const events = screen.getByRole("group", { name: "Events" });
    expect(document.getElementById(events.getAttribute("aria-describedby")!)?.textContent).toBe(
      "Choose at least one event",
    );
    // Ticked in any order, the events are sent in the list's.
    await user.type(url, "https://erp.example.com/in");
    await user.click(within(events).getByRole("checkbox", { name: /team\.created/ }));
    await user.click(within(events).getByRole("checkbox", { name: /member\.added/ }));
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    await screen.findByRole("dialog", { name: "Copy the signing secret" });
    expect(calls.filter((call) => call.method === "POST" && call.path === BASE).map((call) => call.body)).toEqual([
      { url: "https://erp.example.com/in", events: ["member.added", "team.created"] },
    ]);
  });

  it("removes an endpoint after asking, then hands focus to the list's title", async () => {
    renderSettings("owner", "/webhooks");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Remove" }));
    const dialog = await screen.findByRole("dialog", { name: "Remove https://crm.example.com/hooks?" });
    within(dialog).getByText(
      "Nothing more is sent to it, and its secret and delivery log are deleted. This cannot be undone.",
    );
    expect(calls.filter((call) => call.method === "DELETE")).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Remove endpoint" }));
    await screen.findByText("No endpoints yet. Add one above.");
    expect(calls.filter((call) => call.method === "DELETE").map((call) => call.path)).toEqual([`${BASE}/wh_1`]);
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole("heading", { name: "Endpoints" })));
  });

  it("reveals the secret, sends a test event, and redelivers from the delivery log", async () => {
    renderSettings("owner", "/webhooks");
    const user = userEvent.setup();
    await screen.findByText("https://crm.example.com/hooks");
    await user.click(screen.getByRole("button", { name: "Reveal secret" }));
    expect(((await screen.findByRole("textbox", { name: "Signing secret" })) as HTMLInputElement).value).toBe(
      "whsec_c2VjcmV0",
    );
    await user.click(screen.getByRole("button", { name: "Send test event" }));
    await user.click(screen.getByRole("button", { name: "Show deliveries" }));
    const log = await screen.findByRole("list", { name: "Deliveries" });
    within(log).getByText("500");
    within(log).getByText("receiver broke");
    await user.click(within(log).getByRole("button", { name: "Redeliver" }));
    await vi.waitFor(() =>
      expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(
        expect.arrayContaining([`POST ${BASE}/wh_1/test`, `POST ${BASE}/wh_1/deliveries/msg_1/redeliver`]),
      ),
    );
  });

  it("says how long deliveries are kept, above the log", async () => {
    renderSettings("owner", "/webhooks");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Show deliveries" }));
    await screen.findByRole("list", { name: "Deliveries" });
    await screen.findByText("Deliveries are kept for 30 days after they succeed or are given up.");
  });

  it("says how long deliveries are kept when there are none yet, in the deployment's days", async () => {
    deliveries = [];
    retentionDays = 1;
    renderSettings("owner", "/webhooks");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Show deliveries" }));
    await screen.findByText("No deliveries yet.");
    await screen.findByText("Deliveries are kept for 1 day after they succeed or are given up.");
    expect(screen.queryByRole("list", { name: "Deliveries" })).toBeNull();
  });
});

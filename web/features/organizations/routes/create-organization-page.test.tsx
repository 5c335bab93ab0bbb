import { QueryClientProvider } from "@tanstack/react-query";
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from "@tanstack/react-router";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../../lib/query-client";
import { CreateOrganizationPage } from "./create-organization-page";

// The page's only way to the server is better-auth's client (through the feature's api hooks): mock it.
const organization = vi.hoisted(() => ({ create: vi.fn() }));
// The slug's availability is the app's own endpoint, answered here.
const slugAvailability = vi.fn(async (_input: RequestInfo | URL) => Response.json({ available: true }));
vi.mock("../../../lib/auth-client", () => ({ authClient: { organization } }));

function renderPage() {
  const notify = { success: vi.fn(), error: vi.fn() };
  const rootRoute = createRootRoute();
  const createRouteNode = createRoute({
    getParentRoute: () => rootRoute,
    path: "/organizations/new",
    component: CreateOrganizationPage,
  });
  const settingsRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: "/organizations/$organizationId/settings",
    component: function Settings() {
      return <h1>Settings of {settingsRoute.useParams().organizationId}</h1>;
    },
  });
  const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: "/", component: () => <h1>Home</h1> });
  const router = createRouter({
    routeTree: rootRoute.addChildren([createRouteNode, settingsRoute, homeRoute]),
    history: createMemoryHistory({ initialEntries: ["/organizations/new"] }),
  });
  render(
    <QueryClientProvider client={createQueryClient(notify)}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { notify, router };
}

describe("CreateOrganizationPage", () => {
  beforeEach(() => {
    organization.create.mockReset();
    slugAvailability.mockReset().mockImplementation(async () => Response.json({ available: true }));
    vi.stubGlobal("fetch", slugAvailability);
  });

  it("says what is missing, inline, and sends nothing", async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Create organization" }));
    await screen.findByText("Enter a name");
    expect(screen.getByLabelText("Name").getAttribute("aria-invalid")).toBe("true");
    expect(organization.create).not.toHaveBeenCalled();
  });

  it("suggests the slug from the name and checks it", async () => {
    const user = userEvent.setup();
    renderPage();
    await user.type(await screen.findByLabelText("Name"), "Rocket Club");
    expect((screen.getByLabelText("Slug") as HTMLInputElement).value).toBe("rocket-club");
    await screen.findByText("✓ This slug is available", {}, { timeout: 2000 });
    expect(String(slugAvailability.mock.lastCall?.[0])).toContain(
      "/api/organizations/slug-availability?slug=rocket-club",
    );
  });

  it("says a taken slug once, live and again on submit, and sends nothing", async () => {
    slugAvailability.mockImplementation(async () => Response.json({ available: false }));
    const user = userEvent.setup();
    renderPage();
    await user.type(await screen.findByLabelText("Name"), "Rocket Club");
    const taken = "This slug is already used by another organization. Choose another one.";
    await screen.findByText(taken, {}, { timeout: 2000 });
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    await waitFor(() => expect(screen.getByLabelText("Slug").getAttribute("aria-invalid")).toBe("true"));
    expect(screen.getAllByText(taken)).toHaveLength(1);
    expect(organization.create).not.toHaveBeenCalled();
  });

  it("shows the server's refusal above the form, without a toast", async () => {
    organization.create.mockResolvedValue({
      data: null,
      error: { status: 400, code: "ORGANIZATION_ALREADY_EXISTS", message: "Organization already exists" },
    });
    const user = userEvent.setup();
    const { notify } = renderPage();
    await user.type(await screen.findByLabelText("Name"), "Rocket Club");
    await user.click(screen.getByRole("button", { name: "Create organization" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "An organization with this slug already exists. Choose another slug.",
    );
    expect(notify.error).not.toHaveBeenCalled();
    screen.getByRole("heading", { name: "Create an organization" });
  });

  it("creates the organization, says so and opens its settings", async () => {
    organization.create.mockResolvedValue({
      data: { id: "org_1", name: "Rocket Club", slug: "rocket-club", createdAt: new Date() },
      error: null,
    });
    const user = userEvent.setup();
    const { notify, router } = renderPage();
    await user.type(await screen.findByLabelText("Name"), "Rocket Club");
    await user.type(screen.getByLabelText("Logo URL (optional)"), "https://example.test/logo.png");
    await user.click(screen.getByRole("button", { name: "Create organization" }));

    await screen.findByRole("heading", { name: "Settings of org_1" });
    expect(router.state.location.pathname).toBe("/organizations/org_1/settings");
    expect(organization.create).toHaveBeenCalledWith({
      name: "Rocket Club",
      slug: "rocket-club",
      logo: "https://example.test/logo.png",
    });
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("Rocket Club is ready"));
  });
});

import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider, createMemoryHistory } from "@tanstack/react-router";
import { createRootRoute, createRoute, createRouter } from "@tanstack/react-router";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../../lib/query-client";
import { CreateOrganizationPage } from "./create-organization-page";

// The form checks a name with the display-name rule the server applies (common/display-name.ts), and shows
// the server's words before anything is sent.
const organization = vi.hoisted(() => ({ create: vi.fn() }));
// The slug's availability is the app's own endpoint, answered here.
const slugAvailability = vi.fn(async (_input: RequestInfo | URL) => Response.json({ available: true }));
vi.mock("../../../lib/auth-client", () => ({ authClient: { organization } }));

function renderPage() {
  const rootRoute = createRootRoute();
  const getParentRoute = () => rootRoute;
  const createRouteNode = createRoute({
    getParentRoute,
    path: "/organizations/new",
    component: CreateOrganizationPage,
  });
  const settingsRoute = createRoute({
    getParentRoute,
    path: "/organizations/$organizationId/settings",
    component: () => null,
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([createRouteNode, settingsRoute]),
    history: createMemoryHistory({ initialEntries: ["/organizations/new"] }),
  });
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

/** Puts `name` into the Name field as one change (a paste), then a valid slug, and submits. */
async function submitName(name: string) {
  const user = userEvent.setup();
  renderPage();
  fireEvent.change(await screen.findByLabelText("Name"), { target: { value: name } });
  const slug = screen.getByLabelText("Slug");
  await user.clear(slug);
  await user.type(slug, "acme");
  await user.click(screen.getByRole("button", { name: "Create organization" }));
}

describe("CreateOrganizationPage's name", () => {
  beforeEach(() => {
    const created = { id: "org_1", name: "Zoë", slug: "acme", createdAt: new Date() };
    organization.create.mockReset().mockResolvedValue({ data: created, error: null });
    slugAvailability.mockReset().mockImplementation(async () => Response.json({ available: true }));
    vi.stubGlobal("fetch", slugAvailability);
  });

  it.each([
    ["a right-to-left override", "Acme\u202Egpj.exe", "Remove text-direction control characters"],
    ["only zero-width spaces", "\u200B\u200B", "Use at least one visible character"],
    ["only a byte order mark and joiners", "\uFEFF\u200D\u200C", "Use at least one visible character"],
  ])("refuses %s with the server's message and sends nothing", async (_case, name, message) => {
    await submitName(name);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByLabelText("Name").getAttribute("aria-invalid")).toBe("true");
    expect(organization.create).not.toHaveBeenCalled();
  });

  it("sends the name trimmed and composed (NFC)", async () => {
    await submitName("\u00A0Zoe\u0308 ");
    await waitFor(() => expect(organization.create).toHaveBeenCalledTimes(1));
    expect(organization.create.mock.calls[0]?.[0]).toMatchObject({ name: "Zo\u00EB", slug: "acme" });
  });
});

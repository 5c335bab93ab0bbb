import { QueryClientProvider } from "@tanstack/react-query";
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from "@tanstack/react-router";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { MemberList, MemberListItem } from "../../../../../common/organization.schemas";
import { createQueryClient } from "../../../../lib/query-client";
import { MembersPage } from "./members-page";
import { OrganizationSettingsLayout } from "./organization-settings-layout";

const organization = vi.hoisted(() => ({ getFullOrganization: vi.fn(), getActiveMemberRole: vi.fn() }));
vi.mock("../../../../lib/auth-client", () => ({ authClient: { organization } }));

const ORG = "org_1";
const memberOf = (id: string, name: string, provisioned: boolean): MemberListItem => ({
  id: `member_${id}`,
  userId: id,
  role: id === "user_me" ? "owner" : "member",
  createdAt: "2026-11-30T10:00:00.000Z",
  user: { id, name, email: `${id}@example.com`, image: null, username: null },
  teams: [],
  provisioned,
});
const list: MemberList = {
  members: [memberOf("user_me", "Olive Owner", false), memberOf("user_ada", "Ada Lovelace", true)],
  total: 2,
  ownerCount: 1,
  limit: 20,
  offset: 0,
};

beforeEach(() => {
  organization.getFullOrganization.mockReset().mockResolvedValue({
    data: { id: ORG, name: "Rocket Club", slug: "rocket-club", logo: null, createdAt: new Date(), metadata: null },
    error: null,
  });
  organization.getActiveMemberRole.mockResolvedValue({ data: { role: "owner" }, error: null });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost");
      // A search finds Ada alone.
      const found = url.searchParams.get("search")
        ? { ...list, members: list.members.filter(({ userId }) => userId === "user_ada"), total: 1 }
        : list;
      const body =
        url.pathname === `/api/organizations/${ORG}/members`
          ? found
          : url.pathname === "/api/meta"
            ? { organizations: { isDeletionDisabled: false } }
            : { code: "NOT_FOUND", message: "no" };
      const status = body === found || url.pathname === "/api/meta" ? 200 : 404;
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderMembersPage() {
  const rootRoute = createRootRoute();
  const settingsRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: "/organizations/$organizationId/settings",
    component: function Settings() {
      return <OrganizationSettingsLayout organizationId={ORG} userId="user_me" />;
    },
  });
  const membersRoute = createRoute({
    getParentRoute: () => settingsRoute,
    path: "/",
    component: () => <MembersPage />,
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([settingsRoute.addChildren([membersRoute])]),
    history: createMemoryHistory({ initialEntries: [`/organizations/${ORG}/settings`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe("the members list", () => {
  it("marks the people the directory provisioned", async () => {
    renderMembersPage();
    const ada = (await screen.findByText("Ada Lovelace")).closest("tr")!;
    within(ada).getByText("Provisioned");
    const olive = screen.getByText("Olive Owner").closest("tr")!;
    expect(within(olive).queryByText("Provisioned")).toBeNull();
  });

  it("counts the organization's members, and during a search the matches, saying so", async () => {
    renderMembersPage();
    await screen.findByText("2 members in Rocket Club.");
    fireEvent.change(screen.getByLabelText("Search members"), { target: { value: "ada" } });
    await screen.findByText("1 member matches “ada”.");
    expect(screen.queryByText(/members? in Rocket Club/)).toBeNull();
    expect(screen.queryByText("Olive Owner")).toBeNull();
  });
});

import { RouterProvider, createMemoryHistory, createRootRoute, createRouter } from "@tanstack/react-router";
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { InvitationPage } from "./invitation-page";

// The page reads the session and the invitation's preview: both mocked, the preview as the server answers a link
// of an organization deleted since.
vi.mock("../../../lib/session", () => ({ useSession: () => ({ isPending: false, data: null }) }));
vi.mock("../api/organizations", () => {
  const idle = () => ({ mutate: vi.fn(), isPending: false });
  return {
    useAcceptInvitation: idle,
    useRejectInvitation: idle,
    useSignOutHere: idle,
    useInvitationDetails: () => ({ data: undefined }),
    useInvitationPreview: () => ({
      isPending: false,
      isError: false,
      data: { state: "organization_deleted", organizationName: "Rocket Club", inviterName: "" },
    }),
  };
});

describe("InvitationPage of a deleted organization", () => {
  it("says the organization no longer exists, not that the link was copied wrong", async () => {
    const rootRoute = createRootRoute({ component: () => <InvitationPage invitationId="inv-1" /> });
    const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ["/"] }) });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole("heading", { name: "This organization no longer exists" })).toBeTruthy();
    expect(screen.getByText("Rocket Club was deleted, so its invitations no longer work.")).toBeTruthy();
    expect(screen.queryByText(/copied it whole/)).toBeNull();
  });
});

import { RouterProvider, createMemoryHistory, createRootRoute, createRouter } from "@tanstack/react-router";
import { render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { InvitationPage } from "./invitation-page";

// An invitation an organization API key sent has no inviter: the preview's `inviterName` and the details'
// `inviterEmail` are null, and the page names the organization instead of a person.
const state = vi.hoisted(() => ({ user: null as null | { email: string } }));
vi.mock("../../../lib/session", () => ({
  useSession: () => ({ isPending: false, data: state.user ? { user: state.user } : null }),
}));
// The sign-in providers the signed-out page offers are the deployment's: none here.
vi.mock("../../../components/social-sign-in", () => ({ SocialSignIn: () => null }));
vi.mock("../api/organizations", () => {
  const idle = () => ({ mutate: vi.fn(), reset: vi.fn(), isPending: false, error: null });
  return {
    useAcceptInvitation: idle,
    useRejectInvitation: idle,
    useSignOutHere: idle,
    useInvitationDetails: () => ({
      isPending: false,
      isError: false,
      data: {
        id: "inv-1",
        email: "ann@example.test",
        role: "member",
        status: "pending",
        expiresAt: "2026-03-07T10:00:00.000Z",
        organizationId: "org-1",
        organizationName: "Rocket Club",
        organizationSlug: "rocket-club",
        inviterEmail: null,
      },
    }),
    useInvitationPreview: () => ({
      isPending: false,
      isError: false,
      data: { state: "pending", organizationName: "Rocket Club", inviterName: null },
    }),
  };
});

function renderPage() {
  const rootRoute = createRootRoute({ component: () => <InvitationPage invitationId="inv-1" /> });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ["/"] }) });
  render(<RouterProvider router={router} />);
}

describe("InvitationPage of an invitation the organization sent (by an API key)", () => {
  beforeEach(() => {
    state.user = null;
  });

  it("invites a signed-out person to the organization, naming no inviter", async () => {
    renderPage();
    expect(await screen.findByRole("heading", { name: "You are invited to join Rocket Club" })).toBeTruthy();
    expect(screen.queryByText(/null/)).toBeNull();
  });

  it("shows the signed-in recipient that the organization invited them", async () => {
    state.user = { email: "ann@example.test" };
    renderPage();
    expect(await screen.findByRole("heading", { name: "Join Rocket Club" })).toBeTruthy();
    const description = screen.getByText(/invited/);
    expect(description.textContent).toMatch(/^Rocket Club invited ann@example\.test to join as Member\./);
  });
});

import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../../../lib/query-client";
import type { Organization } from "../../api/organizations";
import { OrganizationProvider } from "../../components/organization-context";
import { InvitationsPage } from "./invitations-page";

// Invitations go through better-auth's client, teams through the app's API (fetch): mock both.
const organization = vi.hoisted(() => ({ inviteMember: vi.fn(), listInvitations: vi.fn(), cancelInvitation: vi.fn() }));
vi.mock("../../../../lib/auth-client", () => ({ authClient: { organization } }));

const ORGANIZATION = {
  id: "org_1",
  name: "Rocket Club",
  slug: "rocket-club",
  logo: null,
  createdAt: new Date(),
  metadata: null,
} as unknown as Organization;

type PlanLimit = Parameters<typeof InvitationsPage>[0]["planLimit"];

/** The page with `planLimit`; `setPlanLimit` changes it while the page stays open (its form keeps what was typed). */
function renderPage(planLimit?: PlanLimit) {
  const notify = { success: vi.fn(), error: vi.fn() };
  const queryClient = createQueryClient(notify);
  const page = (limit?: PlanLimit) => (
    <QueryClientProvider client={queryClient}>
      <OrganizationProvider organization={ORGANIZATION} role="owner" userId="user_1">
        <InvitationsPage planLimit={limit} />
      </OrganizationProvider>
    </QueryClientProvider>
  );
  const { rerender } = render(page(planLimit));
  return { notify, setPlanLimit: (limit: PlanLimit) => rerender(page(limit)) };
}

beforeEach(() => {
  organization.inviteMember.mockReset();
  organization.listInvitations.mockReset().mockResolvedValue({ data: [], error: null });
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response("[]", { status: 200, headers: { "content-type": "application/json" } })),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("InvitationsPage with a plan limit", () => {
  it("shows the seat usage, and sends invitations while seats are free", async () => {
    organization.inviteMember.mockResolvedValue({ data: { id: "inv_1" }, error: null });
    const user = userEvent.setup();
    const { notify } = renderPage({ usage: "Seats: 3 of 5" });
    await screen.findByText("Seats: 3 of 5");
    await user.type(screen.getByLabelText("E-mail"), "ann@example.test");
    await user.click(screen.getByRole("button", { name: "Send invitation" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("Invitation sent to ann@example.test"));
  });

  it("replaces the submit button with the locked state once every seat is used, disables the fields, and sends nothing", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { setPlanLimit } = renderPage({ usage: "Seats: 4 of 5" });
    // An address typed while a seat was free: the last seat goes before it is sent.
    await user.type(await screen.findByLabelText("E-mail"), "ann@example.test");
    setPlanLimit({
      usage: "Seats: 5 of 5",
      locked: <p>Your plan includes 5 seats. Upgrade or add seats to invite more.</p>,
    });
    await screen.findByText("Your plan includes 5 seats. Upgrade or add seats to invite more.");
    expect(screen.queryByRole("button", { name: "Send invitation" })).toBeNull();
    const email = screen.getByLabelText<HTMLInputElement>("E-mail");
    expect(
      [
        email,
        screen.getByLabelText<HTMLSelectElement>("Role"),
        screen.getByLabelText<HTMLSelectElement>("Team (optional)"),
      ].map((field) => field.disabled),
    ).toEqual([true, true, true]);
    // Enter in a field submits a form implicitly: that must not send either.
    fireEvent.submit(email.form!);
    // Far longer than a submission takes to validate and send.
    await vi.advanceTimersByTimeAsync(5000);
    expect(organization.inviteMember).not.toHaveBeenCalled();
  });

  it("words the server's PLAN_LIMIT_REACHED refusal for people", async () => {
    organization.inviteMember.mockResolvedValue({
      data: null,
      error: {
        status: 403,
        code: "PLAN_LIMIT_REACHED",
        message: "The Free plan includes 5 seats and all are used by members and pending invitations.",
      },
    });
    const user = userEvent.setup();
    const { notify } = renderPage();
    await user.type(await screen.findByLabelText("E-mail"), "ann@example.test");
    await user.click(screen.getByRole("button", { name: "Send invitation" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Every seat on your plan is taken by members and pending invitations. An owner can make room in Settings › Billing.",
    );
    expect(notify.error).not.toHaveBeenCalled();
  });
});

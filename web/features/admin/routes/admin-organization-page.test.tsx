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
import type { AdminOrganizationDetail } from "../../../../common/admin.schemas";
import { createQueryClient } from "../../../lib/query-client";
import { AdminOrganizationPage } from "./admin-organization-page";

const ORGANIZATION_ID = "org_1";
const OWNER_PATH = `/api/admin/organizations/${ORGANIZATION_ID}/owner`;

let organization: AdminOrganizationDetail;
/** What POST …/owner answers: a status and body, or a promise the test settles. */
let assignAnswer: () => Promise<Response>;
let posted: unknown[];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

beforeEach(() => {
  posted = [];
  organization = {
    organization: {
      id: ORGANIZATION_ID,
      name: "Navy Labs",
      slug: "navy",
      logo: null,
      createdAt: "2026-01-05T10:00:00Z",
    },
    members: [
      {
        id: "member_1",
        userId: "user_grace",
        name: "Grace Hopper",
        email: "grace@example.test",
        role: "member",
        joinedAt: "2026-01-06T10:00:00.000Z",
      },
    ],
    teams: [],
    invitations: [],
  };
  assignAnswer = async () => json({ userId: "user_grace", email: "grace@example.test", from: "member" });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(new URL(String(input), "http://localhost"), init);
      const url = new URL(request.url);
      if (request.method === "POST" && url.pathname === OWNER_PATH) {
        posted.push(await request.json());
        return assignAnswer();
      }
      if (url.pathname === `/api/admin/organizations/${ORGANIZATION_ID}`) return json(organization);
      if (url.pathname === "/api/admin/audit-log") return json({ entries: [], total: 0, limit: 10, offset: 0 });
      return json({ code: "NOT_FOUND", message: "no route" }, 404);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const notify = { success: vi.fn(), error: vi.fn() };
  const rootRoute = createRootRoute();
  const page = createRoute({
    getParentRoute: () => rootRoute,
    path: "/admin/organizations/$organizationId",
    component: () => <AdminOrganizationPage organizationId={ORGANIZATION_ID} billing={null} />,
  });
  const placeholders = ["/admin/organizations", "/admin/audit-log", "/admin/users/$userId"].map((path) =>
    createRoute({ getParentRoute: () => rootRoute, path, component: () => <p>Page at {path}</p> }),
  );
  const router = createRouter({
    routeTree: rootRoute.addChildren([page, ...placeholders]),
    history: createMemoryHistory({ initialEntries: [`/admin/organizations/${ORGANIZATION_ID}`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient(notify)}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { notify };
}

async function openDialog() {
  const actor = userEvent.setup();
  await actor.click(await screen.findByRole("button", { name: "Give a new owner" }));
  return { actor, dialog: await screen.findByRole("dialog", { name: "Give Navy Labs a new owner" }) };
}

describe("giving an organization a new owner", () => {
  it("says when the organization has no owner", async () => {
    renderPage();
    await screen.findByText("This organization has no owner");
  });

  it("needs an e-mail and a reason, then sends them and closes with a confirmation", async () => {
    const { notify } = renderPage();
    const { actor, dialog } = await openDialog();
    expect(within(dialog).getByLabelText("New owner's e-mail")).toBe(document.activeElement);

    await actor.click(within(dialog).getByRole("button", { name: "Make owner" }));
    await within(dialog).findByText("Enter the new owner's e-mail");
    within(dialog).getByText("Say why, for the audit log");
    expect(posted).toEqual([]);

    await actor.type(within(dialog).getByLabelText("New owner's e-mail"), "grace@example.test");
    await actor.type(within(dialog).getByLabelText("Reason"), "Owner left; ticket 4711");
    organization.members[0]!.role = "owner";
    await actor.click(within(dialog).getByRole("button", { name: "Make owner" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posted).toEqual([{ email: "grace@example.test", reason: "Owner left; ticket 4711" }]);
    expect(notify.success).toHaveBeenCalledWith("grace@example.test is now an owner of this organization");
    await waitFor(() => expect(screen.queryByText("This organization has no owner")).toBeNull());
  });

  it("shows that it is working, then the server's refusal on the e-mail field, and stays open", async () => {
    let answer: (response: Response) => void = () => {};
    assignAnswer = () => new Promise((resolve) => (answer = resolve));
    const { notify } = renderPage();
    const { actor, dialog } = await openDialog();
    await actor.type(within(dialog).getByLabelText("New owner's e-mail"), "nobody@example.test");
    await actor.type(within(dialog).getByLabelText("Reason"), "Recovery");
    await actor.click(within(dialog).getByRole("button", { name: "Make owner" }));

    await within(dialog).findByRole("button", { name: "Assigning…" });
    answer(json({ code: "NOT_FOUND", message: "No user has the e-mail nobody@example.test." }, 404));
    await within(dialog).findByText("No one has an account with this e-mail address.");
    expect(within(dialog).getByLabelText("New owner's e-mail").getAttribute("aria-invalid")).toBe("true");
    expect(notify.error).not.toHaveBeenCalled();
  });

  it("closes with Escape, giving focus back to the button that opened it", async () => {
    renderPage();
    const { actor } = await openDialog();
    await actor.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Give a new owner" })));
  });
});

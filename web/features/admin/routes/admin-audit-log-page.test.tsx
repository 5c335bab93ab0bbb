import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AuditEntry, AuditLogPage } from "../../../../common/audit.schemas";
import { createQueryClient } from "../../../lib/query-client";
import { AdminAuditLogPage, type AdminAuditLogSearch } from "./admin-audit-log-page";

const entries: AuditEntry[] = [
  {
    id: "evt_2",
    createdAt: "2026-03-05T11:00:00.000Z",
    action: "user.banned",
    actor: { type: "user", id: "user_ann", label: "ann@example.test" },
    impersonator: { id: "user_admin", label: "admin@example.test" },
    target: { type: "user", id: "user_bo", label: "bo@example.test" },
    organization: null,
    ipAddress: "203.0.113.7",
    userAgent: null,
    reason: "Spam",
    details: { expiresAt: null },
  },
  {
    id: "evt_1",
    createdAt: "2026-03-05T10:00:00.000Z",
    action: "team.renamed",
    actor: { type: "command_line", id: null, label: "command line" },
    impersonator: null,
    target: { type: "team", id: "team_1", label: "Product" },
    organization: { id: "org_1", name: "Rocket Club" },
    ipAddress: null,
    userAgent: null,
    reason: null,
    details: { from: "Design", to: "Product" },
  },
];

let requests: URL[];

beforeEach(() => {
  requests = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), "http://localhost");
      requests.push(url);
      const page: AuditLogPage = { entries, total: 2, limit: 25, offset: 0 };
      return new Response(JSON.stringify(page), { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

/** The page with its URL state held here, as the route holds it in the address. */
function renderPage(initial: AdminAuditLogSearch) {
  function Harness() {
    const [search, setSearch] = useState(initial);
    return <AdminAuditLogPage search={search} onSearchChange={setSearch} />;
  }
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <Harness />
    </QueryClientProvider>,
  );
}

describe("AdminAuditLogPage", () => {
  it("says who did what, where, and why: impersonations, the command line, organizations and reasons", async () => {
    renderPage({ limit: 25, offset: 0 });
    const table = await screen.findByRole("table", { name: "Audit log" });
    const [banned, renamed] = within(table).getAllByRole("row").slice(1);
    expect(banned?.textContent).toContain("Banned bo@example.test permanently");
    expect(banned?.textContent).toContain("via admin@example.test");
    expect(banned?.textContent).toContain("203.0.113.7");
    expect(banned?.textContent).toContain("Spam");
    expect(renamed?.textContent).toContain("Command line");
    expect(renamed?.textContent).toContain("Renamed team from Design to Product");
    expect(renamed?.textContent).toContain("Rocket Club");
  });

  it("exports exactly the filters in force, without the page, and clears them", async () => {
    const user = userEvent.setup();
    renderPage({ actorId: "user_ann", organizationId: "org_1", from: "2026-03-01", limit: 50, offset: 100 });
    await screen.findByRole("table", { name: "Audit log" });
    const exportLink = () => screen.getByRole("link", { name: "Export CSV" });
    expect(exportLink().getAttribute("href")).toBe(
      "/api/admin/audit-log/export?actorId=user_ann&organizationId=org_1&from=2026-03-01",
    );
    expect(requests.at(-1)?.search).toBe("?actorId=user_ann&organizationId=org_1&from=2026-03-01&limit=50&offset=100");

    await user.selectOptions(screen.getByLabelText("Action"), "User banned");
    await waitFor(() =>
      expect(exportLink().getAttribute("href")).toBe(
        "/api/admin/audit-log/export?action=user.banned&actorId=user_ann&organizationId=org_1&from=2026-03-01",
      ),
    );
    // A new filter starts again at the first page.
    await waitFor(() => expect(requests.at(-1)?.searchParams.get("offset")).toBe("0"));

    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(exportLink().getAttribute("href")).toBe("/api/admin/audit-log/export"));
    expect((screen.getByLabelText("Done by (user id)") as HTMLInputElement).value).toBe("");
    expect((screen.getByLabelText("From") as HTMLInputElement).value).toBe("");
  });

  it("applies a typed id once typing pauses, and refuses a range of days that ends before it starts", async () => {
    const user = userEvent.setup();
    renderPage({ from: "2026-03-10", limit: 25, offset: 0 });
    await screen.findByRole("table", { name: "Audit log" });
    await user.type(screen.getByLabelText("About (id)"), "user_bo");
    await waitFor(() => expect(requests.at(-1)?.searchParams.get("targetId")).toBe("user_bo"));

    await user.type(screen.getByLabelText("To"), "2026-03-01");
    await screen.findByText("Choose a day on or after the start");
    expect(requests.every((request) => !request.searchParams.has("to"))).toBe(true);
  });
});

import { QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../../lib/query-client";
import { useDeleteOrganization } from "./organizations";

const organization = vi.hoisted(() => ({ delete: vi.fn(), list: vi.fn(), setActive: vi.fn() }));
vi.mock("../../../lib/auth-client", () => ({ authClient: { organization } }));

// The session as GET /api/auth/get-session answers it: better-auth cleared the active organization on deletion.
let activeOrganizationId: string | null = null;

beforeEach(() => {
  activeOrganizationId = null;
  organization.delete.mockReset().mockResolvedValue({ data: { id: "org_gone" }, error: null });
  organization.setActive.mockReset().mockResolvedValue({ data: {}, error: null });
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json({ user: { id: "user_1" }, session: { id: "s_1", activeOrganizationId } })),
  );
});
afterEach(() => vi.unstubAllGlobals());

function deleteGone() {
  const client = createQueryClient({ success: vi.fn(), error: vi.fn() });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(() => useDeleteOrganization({ id: "org_gone", name: "Gone" }), { wrapper });
  result.current.mutate();
  return result;
}

describe("deleting the active organization", () => {
  it("makes another of the person's organizations active", async () => {
    organization.list.mockResolvedValue({ data: [{ id: "org_next", name: "Next" }], error: null });
    const result = deleteGone();
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(organization.setActive).toHaveBeenCalledWith({ organizationId: "org_next" });
  });

  it("leaves none active when there is no other", async () => {
    organization.list.mockResolvedValue({ data: [], error: null });
    const result = deleteGone();
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(organization.setActive).not.toHaveBeenCalled();
  });
});

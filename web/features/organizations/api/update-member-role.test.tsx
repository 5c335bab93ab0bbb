import { QueryClientProvider } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import type { MemberListItem } from "../../../../common/organization.schemas";
import { createQueryClient } from "../../../lib/query-client";
import { useUpdateMemberRole } from "./organizations";

const organization = vi.hoisted(() => ({ updateMemberRole: vi.fn() }));
vi.mock("../../../lib/auth-client", () => ({ authClient: { organization } }));

describe("useUpdateMemberRole", () => {
  it.each([
    ["admin", "Ada Lovelace is now an admin"],
    ["member", "Ada Lovelace is now a member"],
    ["owner", "Ada Lovelace is now an owner"],
  ])("says the new role as a sentence: %s", async (role, sentence) => {
    organization.updateMemberRole.mockResolvedValue({ data: { id: "member_1" }, error: null });
    const notify = { success: vi.fn(), error: vi.fn() };
    const client = createQueryClient(notify);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useUpdateMemberRole("org_1"), { wrapper });
    const member = { id: "member_1", user: { name: "Ada Lovelace" } } as MemberListItem;
    result.current.mutate({ member, role });
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith(sentence));
  });
});

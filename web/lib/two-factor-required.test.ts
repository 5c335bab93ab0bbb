import { QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-error";
import { createQueryClient } from "./query-client";
import { safeNextPath, sendToTwoFactorSetup, setTwoFactorNavigation, twoFactorSetupHref } from "./two-factor-required";

const required = () => new ApiError("This organization requires a second factor.", 403, "TWO_FACTOR_REQUIRED");

describe("the way to a second factor an organization requires", () => {
  it("sends the person to the Security page with where they were and why", () => {
    const navigate = vi.fn();
    setTwoFactorNavigation(navigate);
    sendToTwoFactorSetup({ pathname: "/organizations/org_1/settings/members", search: "?search=ann" });
    expect(navigate).toHaveBeenCalledExactlyOnceWith(
      "/account/security?next=%2Forganizations%2Forg_1%2Fsettings%2Fmembers%3Fsearch%3Dann&reason=two-factor-required",
    );
    sendToTwoFactorSetup({ pathname: "/account/security", search: "?next=%2F" });
    expect(navigate).toHaveBeenCalledOnce();
  });

  it("reads back only paths of the app as the way back", () => {
    const next = new URL(twoFactorSetupHref("/organizations/org_1?tab=1"), "http://localhost").searchParams.get("next");
    expect(safeNextPath(next)).toBe("/organizations/org_1?tab=1");
    for (const outside of ["//evil.test/x", "https://evil.test", "/\\evil.test", "javascript:alert(1)", "", null])
      expect(safeNextPath(outside)).toBeUndefined();
  });

  it("follows from any refused read or mutation, without an error toast", async () => {
    const notify = { success: vi.fn(() => 0), error: vi.fn(() => 0) };
    const onRequired = vi.fn();
    const queryClient = createQueryClient(notify, onRequired);
    await queryClient
      .getMutationCache()
      .build(queryClient, { mutationFn: () => Promise.reject(required()) })
      .execute(undefined)
      .catch(() => undefined);
    expect(onRequired).toHaveBeenCalledOnce();
    expect(notify.error).not.toHaveBeenCalled();

    const observer = new QueryObserver(queryClient, {
      queryKey: ["members"],
      queryFn: () => Promise.reject(required()),
    });
    const settled = new Promise<void>((resolve) => observer.subscribe((result) => result.isError && resolve()));
    await settled;
    expect(onRequired).toHaveBeenCalledTimes(2);
  });

  it("leaves other refusals to the page", async () => {
    const onRequired = vi.fn();
    const queryClient = createQueryClient({ success: vi.fn(() => 0), error: vi.fn(() => 0) }, onRequired);
    await queryClient
      .fetchQuery({ queryKey: ["x"], queryFn: () => Promise.reject(new ApiError("No", 403, "FORBIDDEN")) })
      .catch(() => undefined);
    expect(onRequired).not.toHaveBeenCalled();
  });
});

import { MutationObserver, type MutationOptions } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-error";
import { createQueryClient } from "./query-client";

function setup() {
  const notify = { success: vi.fn(() => 0), error: vi.fn(() => 0) };
  const queryClient = createQueryClient(notify);
  const run = <TData, TVariables>(options: MutationOptions<TData, Error, TVariables>, variables: TVariables) =>
    new MutationObserver(queryClient, options).mutate(variables).catch(() => undefined);
  return { notify, run };
}

describe("the query client's mutation feedback", () => {
  it("shows a failed mutation's error as an error toast", async () => {
    const { notify, run } = setup();
    await run(
      { mutationFn: async () => Promise.reject(new ApiError("That slug is taken.", 409, "SLUG_TAKEN")) },
      undefined,
    );
    expect(notify.error).toHaveBeenCalledExactlyOnceWith("That slug is taken.");
    expect(notify.success).not.toHaveBeenCalled();
  });

  it("uses the friendly message for an unexpected error", async () => {
    const { notify, run } = setup();
    await run({ mutationFn: async () => Promise.reject(new Error("undefined is not a function")) }, undefined);
    expect(notify.error).toHaveBeenCalledExactlyOnceWith("Something went wrong. Please try again.");
  });

  it("leaves the error to the form when meta.errorToast is false", async () => {
    const { notify, run } = setup();
    await run(
      { mutationFn: async () => Promise.reject(new ApiError("Wrong password", 401)), meta: { errorToast: false } },
      undefined,
    );
    expect(notify.error).not.toHaveBeenCalled();
  });

  it("shows meta.successMessage after success, and nothing without it", async () => {
    const { notify, run } = setup();
    await run({ mutationFn: async () => "ok", meta: { successMessage: "Profile saved" } }, undefined);
    await run({ mutationFn: async () => "ok" }, undefined);
    expect(notify.success).toHaveBeenCalledExactlyOnceWith("Profile saved");
  });

  it("builds the success message from the data and variables when it is a function", async () => {
    const { notify, run } = setup();
    await run(
      {
        mutationFn: async (role: string) => ({ name: "Ann", role }),
        meta: { successMessage: (member: { name: string }, role: string) => `${member.name} is now ${role}` },
      },
      "admin",
    );
    expect(notify.success).toHaveBeenCalledExactlyOnceWith("Ann is now admin");
  });

  it("does not show a success message when the mutation failed", async () => {
    const { notify, run } = setup();
    await run(
      { mutationFn: async () => Promise.reject(new Error("no")), meta: { successMessage: "Saved" } },
      undefined,
    );
    expect(notify.success).not.toHaveBeenCalled();
  });
});

import { describe, expect, it } from "vitest";
import { ApiError, toApiError } from "../../../lib/api-error";
import { serverErrorTarget } from "../../../lib/form";
import { changePasswordServerErrors, deleteAccountServerErrors, profileServerErrors } from "./account";

describe("account forms: server errors", () => {
  it("a wrong current password goes on that field, worded for each form", () => {
    const wrong = toApiError({ status: 400, code: "INVALID_PASSWORD" });
    expect(serverErrorTarget(wrong, changePasswordServerErrors)).toEqual({
      field: "currentPassword",
      message: "That is not your current password.",
    });
    expect(serverErrorTarget(wrong, deleteAccountServerErrors)).toEqual({
      field: "password",
      message: "That password is not right.",
    });
  });

  it("a refused username (422) goes on the profile's username field", () => {
    expect(
      serverErrorTarget(new ApiError("Username is invalid", 422, "USERNAME_IS_INVALID"), profileServerErrors),
    ).toEqual({
      field: "username",
      message: "Username is invalid",
    });
    expect(serverErrorTarget(new ApiError("Session expired", 401, "SESSION_EXPIRED"), profileServerErrors)).toEqual({
      message: "Session expired",
    });
  });
});

import { describe, expect, it } from "vitest";
import { ApiError, toApiError } from "../../../lib/api-error";
import { serverErrorTarget } from "../../../lib/form";
import { signInServerErrors, signUpServerErrors } from "./auth";

describe("sign-up: server errors", () => {
  it("puts every username complaint on the username field", () => {
    for (const code of ["USERNAME_IS_ALREADY_TAKEN", "USERNAME_TOO_SHORT", "USERNAME_TOO_LONG", "INVALID_USERNAME"]) {
      expect(serverErrorTarget(toApiError({ status: 422, code, message: "raw" }), signUpServerErrors).field).toBe(
        "username",
      );
    }
    expect(
      serverErrorTarget(toApiError({ status: 422, code: "USERNAME_IS_ALREADY_TAKEN" }), signUpServerErrors),
    ).toEqual({
      field: "username",
      message: "That username is already taken. Try another.",
    });
  });

  it("puts password complaints on the password field", () => {
    expect(serverErrorTarget(toApiError({ status: 400, code: "PASSWORD_TOO_SHORT" }), signUpServerErrors)).toEqual({
      field: "password",
      message: "Use at least 8 characters.",
    });
  });

  it("keeps an existing account or a rate limit above the form", () => {
    expect(
      serverErrorTarget(new ApiError("User already exists", 422, "USER_ALREADY_EXISTS"), signUpServerErrors),
    ).toEqual({ message: "User already exists" });
    expect(serverErrorTarget(toApiError({ status: 429 }), signUpServerErrors)).toEqual({
      message: "Too many attempts. Wait a minute, then try again.",
    });
  });
});

describe("sign-in: server errors", () => {
  it("never names a field, and asks to verify the address in its own words", () => {
    expect(
      serverErrorTarget(toApiError({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" }), signInServerErrors),
    ).toEqual({
      message: "That e-mail or password is not right.",
    });
    expect(serverErrorTarget(toApiError({ status: 403, code: "EMAIL_NOT_VERIFIED" }), signInServerErrors)).toEqual({
      message: "Verify your e-mail address first. We just sent a new link to your inbox.",
    });
  });
});

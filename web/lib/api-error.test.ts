import { describe, expect, it } from "vitest";
import { ApiError, errorMessage, toApiError, unwrap, USERNAME_TAKEN_MESSAGE } from "./api-error";

describe("toApiError", () => {
  it("maps a known better-auth code to a sentence a person can act on, keeping status and code", () => {
    const error = toApiError({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe("That e-mail or password is not right.");
    expect(error.status).toBe(401);
    expect(error.code).toBe("INVALID_EMAIL_OR_PASSWORD");
    expect(toApiError({ status: 422, code: "USERNAME_IS_ALREADY_TAKEN" }).message).toBe(USERNAME_TAKEN_MESSAGE);
  });

  it("turns any 429 into the rate-limit message, whatever the code", () => {
    const error = toApiError({ status: 429, code: "INVALID_PASSWORD", message: "slow down" });
    expect(error.message).toBe("Too many attempts. Wait a minute, then try again.");
    expect(error.code).toBe("TOO_MANY_REQUESTS");
  });

  it("falls back to the server's message, then the status text, then a generic sentence", () => {
    expect(toApiError({ status: 400, code: "SOMETHING_NEW", message: "Organization slug is taken" }).message).toBe("Organization slug is taken");
    expect(toApiError({ status: 500, statusText: "Internal Server Error" }).message).toBe("Internal Server Error");
    expect(toApiError({ status: 500 }).message).toBe("Something went wrong. Please try again.");
  });
});

describe("unwrap", () => {
  it("returns the data of a successful better-auth result", () => {
    expect(unwrap({ data: { id: "1" }, error: null })).toEqual({ id: "1" });
  });

  it("throws the mapped ApiError of a failed one", () => {
    expect(() => unwrap({ data: null, error: { status: 401, code: "INVALID_PASSWORD" } })).toThrowError(
      new ApiError("That password is not right.", 401, "INVALID_PASSWORD"),
    );
  });
});

describe("errorMessage", () => {
  it("shows an ApiError's own message", () => {
    expect(errorMessage(new ApiError("You cannot remove the last owner.", 403, "FORBIDDEN"))).toBe("You cannot remove the last owner.");
  });

  it("explains a failed fetch (a TypeError) as a connection problem", () => {
    expect(errorMessage(new TypeError("Failed to fetch"))).toBe("Could not reach the server. Check your connection and try again.");
  });

  it("never shows the text of an unexpected error", () => {
    expect(errorMessage(new Error("Cannot read properties of undefined"))).toBe("Something went wrong. Please try again.");
    expect(errorMessage("boom")).toBe("Something went wrong. Please try again.");
  });
});

import { describe, expect, it } from "vitest";
import { bannedUserMessage } from "../../common/admin.schemas";
import { ApiError, bannedAccountMessage, errorMessage, toApiError, unwrap, USERNAME_TAKEN_MESSAGE } from "./api-error";
import { formatDateTime } from "./format";

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

describe("a banned sign-in", () => {
  it("says until when, in the reader's own time, reading only the end of the ban from the server's message", () => {
    const until = new Date("2030-04-05T06:07:08.000Z");
    const error = toApiError({ status: 403, code: "BANNED_USER", message: bannedUserMessage(until) });
    expect(error.message).toBe(`This account is banned until ${formatDateTime(until)}. Contact the administrators if you think this is a mistake.`);
    expect(error.code).toBe("BANNED_USER");
    expect(error.status).toBe(403);
  });

  it("says so without a date for a ban that does not end, whatever else the message holds", () => {
    const expected = "This account is banned. Contact the administrators if you think this is a mistake.";
    expect(toApiError({ status: 403, code: "BANNED_USER", message: bannedUserMessage(null) }).message).toBe(expected);
    expect(toApiError({ status: 403, code: "BANNED_USER", message: "<b>call 555</b>" }).message).toBe(expected);
    expect(bannedAccountMessage(null)).toBe(expected);
  });

  it("words the admin console's refusals", () => {
    expect(toApiError({ status: 400, code: "LAST_PLATFORM_ADMIN", message: "The last platform admin cannot be demoted" }).message).toBe(
      "This is the last platform admin. Make someone else a platform admin first.",
    );
    expect(toApiError({ status: 400, code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" }).message).toBe("An account with this e-mail address already exists.");
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

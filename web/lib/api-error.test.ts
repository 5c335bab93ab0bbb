import { beforeAll, describe, expect, it, vi } from "vitest";
import { bannedUserMessage } from "../../common/ban-message";
import {
  ACCOUNT_ERROR_CODES,
  ERROR_CODES,
  ORGANIZATION_ERROR_CODES,
  PLATFORM_ADMIN_ERROR_CODES,
  SPEC_CATALOGUE_CODES,
} from "../../common/error-codes";
import {
  ApiError,
  carryRetryAfter,
  errorMessage,
  loadErrorSentences,
  retryAfterSeconds,
  toApiError,
  toResponseError,
  unwrap,
} from "./api-error";
import { bannedAccountMessage, ERROR_SENTENCES, rateLimitMessage, USERNAME_TAKEN_MESSAGE } from "./error-sentences";
import { formatDateTime } from "./format";

beforeAll(() => loadErrorSentences());

describe("loadErrorSentences", () => {
  it("is what makes an ApiError possible: toResponseError loads the sentences itself", async () => {
    vi.resetModules();
    const fresh = await import("./api-error");
    expect(() => fresh.toApiError({ status: 404 })).toThrow("toApiError needs the error sentences");
    const response = new Response(JSON.stringify({ code: "NOT_FOUND", message: "not found" }), { status: 404 });
    const error = await fresh.toResponseError(response);
    expect([error.message, error.status, error.code]).toEqual([ERROR_SENTENCES.NOT_FOUND, 404, "NOT_FOUND"]);
    expect(fresh.toApiError({ status: 409 }).message).toBe(ERROR_SENTENCES.CONFLICT);
  });
});

describe("toResponseError", () => {
  it("reads the body's code, message and details, and a 429's Retry-After", async () => {
    const response = new Response(
      JSON.stringify({ code: "VALIDATION_ERROR", message: "x", details: { fieldErrors: {} } }),
      { status: 422 },
    );
    const error = await toResponseError(response);
    expect([error.message, error.status, error.code, error.details]).toEqual([
      ERROR_SENTENCES.VALIDATION_ERROR,
      422,
      "VALIDATION_ERROR",
      { fieldErrors: {} },
    ]);
    const limited = await toResponseError(new Response("not json", { status: 429, headers: { "Retry-After": "42" } }));
    expect([limited.message, limited.code, limited.retryAfter]).toEqual([
      "Too many attempts. Try again in 42 seconds.",
      "TOO_MANY_REQUESTS",
      42,
    ]);
  });
});

describe("toApiError", () => {
  it("maps a known better-auth code to a sentence a person can act on, keeping status and code", () => {
    const error = toApiError({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe("That e-mail or password is not right.");
    expect(error.status).toBe(401);
    expect(error.code).toBe("INVALID_EMAIL_OR_PASSWORD");
    expect(toApiError({ status: 422, code: "USERNAME_IS_ALREADY_TAKEN" }).message).toBe(USERNAME_TAKEN_MESSAGE);
  });

  it("turns any 429 into the rate-limit message with the wait the server sent, whatever the code", () => {
    const error = toApiError({ status: 429, code: "INVALID_PASSWORD", message: "slow down", retryAfter: 42 });
    expect(error.message).toBe("Too many attempts. Try again in 42 seconds.");
    expect(error.code).toBe("TOO_MANY_REQUESTS");
    expect(error.retryAfter).toBe(42);
    expect(toApiError({ status: 429, message: "Too many requests. Please try again later." }).message).toBe(
      "Too many attempts. Wait a minute, then try again.",
    );
  });

  it("never shows the server's own text for a code nobody worded: a sentence by status instead", () => {
    expect(toApiError({ status: 400, code: "SOMETHING_NEW", message: "slug is taken" }).message).toBe(
      "That could not be done. Check what you entered and try again.",
    );
    expect(toApiError({ status: 403, code: "SOMETHING_NEW", message: "not allowed" }).message).toBe(
      "You are not allowed to do this. Ask an administrator if you need it.",
    );
    expect(toApiError({ status: 500, statusText: "Internal Server Error" }).message).toBe(
      "Something went wrong. Please try again.",
    );
    expect(toApiError({ status: 500 }).message).toBe("Something went wrong. Please try again.");
    // A code named like an Object property is not a sentence either.
    expect(toApiError({ status: 400, code: "constructor" }).message).toBe(
      "That could not be done. Check what you entered and try again.",
    );
  });

  it("words the raw lower-case messages of the spec's catalogue and better-auth", () => {
    const cases: Array<[number, string, string, string]> = [
      [
        400,
        "ORGANIZATION_SLUG_ALREADY_TAKEN",
        "slug is taken",
        "This slug is already used by another organization. Choose another one.",
      ],
      [
        400,
        "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER",
        "you cannot leave the organization as the only owner",
        "You are the only owner, so you cannot leave. Make another member an owner first, or delete the organization.",
      ],
      [
        400,
        "ORGANIZATION_NOT_FOUND",
        "organization not found",
        "This organization no longer exists, or you are not part of it. Go back to your organizations.",
      ],
      [
        400,
        "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION",
        "user is not a member of the organization",
        "That person is not a member of this organization (any more). Reload the page.",
      ],
      [
        400,
        "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION",
        "User is already invited to this organization",
        "This person already has a pending invitation. Resend or cancel it from the invitations list.",
      ],
      [
        400,
        "PASSWORD_UNCHANGED",
        "The new password must differ from the current password",
        "The new password is the same as your current one. Choose a different password.",
      ],
    ];
    for (const [status, code, message, sentence] of cases)
      expect(toApiError({ status, code, message }).message).toBe(sentence);
  });
});

describe("the table of sentences", () => {
  const codes = [
    ...Object.keys(ERROR_CODES),
    ...Object.keys(ORGANIZATION_ERROR_CODES),
    ...Object.keys(PLATFORM_ADMIN_ERROR_CODES),
    ...Object.keys(ACCOUNT_ERROR_CODES),
    ...SPEC_CATALOGUE_CODES,
  ];

  it.each(codes)("has a sentence for %s", (code) => {
    expect(ERROR_SENTENCES[code], code).toBeTypeOf("string");
  });

  it("holds sentences: a capital first, a full stop last", () => {
    for (const [code, sentence] of Object.entries(ERROR_SENTENCES)) expect(sentence, code).toMatch(/^[A-Z].*\.$/);
  });
});

describe("the rate-limit message", () => {
  it("says how long to wait, in seconds up to a minute and in whole minutes (rounded up) beyond", () => {
    expect(rateLimitMessage(42)).toBe("Too many attempts. Try again in 42 seconds.");
    expect(rateLimitMessage(1)).toBe("Too many attempts. Try again in 1 second.");
    expect(rateLimitMessage(0.2)).toBe("Too many attempts. Try again in 1 second.");
    expect(rateLimitMessage(59)).toBe("Too many attempts. Try again in 59 seconds.");
    expect(rateLimitMessage(60)).toBe("Too many attempts. Try again in 60 seconds.");
    expect(rateLimitMessage(61)).toBe("Too many attempts. Try again in 2 minutes.");
    expect(rateLimitMessage(120)).toBe("Too many attempts. Try again in 2 minutes.");
    expect(rateLimitMessage(150)).toBe("Too many attempts. Try again in 3 minutes.");
    expect(rateLimitMessage(180)).toBe("Too many attempts. Try again in 3 minutes.");
  });

  it("falls back to a minute when the server sent no usable wait", () => {
    for (const wait of [undefined, 0, -5, Number.NaN])
      expect(rateLimitMessage(wait)).toBe("Too many attempts. Wait a minute, then try again.");
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfterSeconds("42")).toBe(42);
    expect(retryAfterSeconds(" 7 ")).toBe(7);
    expect(retryAfterSeconds(null)).toBeUndefined();
    expect(retryAfterSeconds("soon")).toBeUndefined();
    vi.useFakeTimers({ now: new Date("2030-01-01T00:00:00Z") });
    try {
      expect(retryAfterSeconds("Tue, 01 Jan 2030 00:02:00 GMT")).toBe(120);
    } finally {
      vi.useRealTimers();
    }
  });

  it("hands better-auth's client the header's seconds in the body of a 429, and leaves other answers alone", async () => {
    const limited = new Response(
      JSON.stringify({ code: "TOO_MANY_REQUESTS", message: "Too many requests. Please try again later." }),
      {
        status: 429,
        headers: { "content-type": "application/json", "Retry-After": "42" },
      },
    );
    const carried = await carryRetryAfter({ response: limited });
    expect(carried?.status).toBe(429);
    expect(await carried?.json()).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: "Too many requests. Please try again later.",
      retryAfter: 42,
    });
    expect(await carryRetryAfter({ response: new Response("{}", { status: 400 }) })).toBeUndefined();
  });
});

describe("a banned sign-in", () => {
  it("says until when, in the reader's own time, reading only the end of the ban from the server's message", () => {
    const until = new Date("2030-04-05T06:07:08.000Z");
    const error = toApiError({ status: 403, code: "BANNED_USER", message: bannedUserMessage(until) });
    expect(error.message).toBe(
      `This account is banned until ${formatDateTime(until)}. Contact the administrators if you think this is a mistake.`,
    );
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
    expect(
      toApiError({ status: 400, code: "LAST_PLATFORM_ADMIN", message: "The last platform admin cannot be demoted" })
        .message,
    ).toBe("This is the last platform admin. Make someone else a platform admin first.");
    expect(toApiError({ status: 400, code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" }).message).toBe(
      "An account with this e-mail address already exists. Use another address.",
    );
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
    expect(errorMessage(new ApiError("You cannot remove the last owner.", 403, "FORBIDDEN"))).toBe(
      "You cannot remove the last owner.",
    );
  });

  it("explains a failed fetch (a TypeError) as a connection problem", () => {
    expect(errorMessage(new TypeError("Failed to fetch"))).toBe(
      "Could not reach the server. Check your connection and try again.",
    );
  });

  it("never shows the text of an unexpected error", () => {
    expect(errorMessage(new Error("Cannot read properties of undefined"))).toBe(
      "Something went wrong. Please try again.",
    );
    expect(errorMessage("boom")).toBe("Something went wrong. Please try again.");
  });
});

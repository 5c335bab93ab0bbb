import { describe, expect, it } from "vitest";
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from "./account-limits";
import { isEmailIdentifier, signInSchema } from "./sign-in.schemas";

const validate = (value: unknown) => signInSchema["~standard"].validate(value);

describe("signInSchema", () => {
  it("accepts an identifier and a password, trims the identifier and keeps the password as typed", () => {
    expect(validate({ identifier: "  ada@example.test ", password: " secret ", rememberMe: true })).toEqual({
      value: { identifier: "ada@example.test", password: " secret ", rememberMe: true },
    });
    expect(validate({ identifier: "ada", password: "x", extra: "dropped" })).toEqual({
      value: { identifier: "ada", password: "x" },
    });
  });

  it("asks for both fields, on their own paths", () => {
    expect(validate({ identifier: "   ", password: "", rememberMe: false })).toEqual({
      issues: [
        { message: "Enter your e-mail or username", path: ["identifier"] },
        { message: "Enter your password", path: ["password"] },
      ],
    });
  });

  it("refuses what is too long, at the limits the server keeps", () => {
    expect(
      validate({ identifier: "a".repeat(EMAIL_MAX_LENGTH), password: "p".repeat(PASSWORD_MAX_LENGTH) }),
    ).toHaveProperty("value");
    expect(
      validate({ identifier: "a".repeat(EMAIL_MAX_LENGTH + 1), password: "p".repeat(PASSWORD_MAX_LENGTH + 1) }),
    ).toEqual({
      issues: [
        { message: `Use at most ${EMAIL_MAX_LENGTH} characters`, path: ["identifier"] },
        { message: `Use at most ${PASSWORD_MAX_LENGTH} characters`, path: ["password"] },
      ],
    });
  });

  it("reads values of the wrong type as missing, and a remember-me that is not a boolean as an issue", () => {
    expect(validate({ identifier: 42, password: null, rememberMe: "yes" })).toEqual({
      issues: [
        { message: "Enter your e-mail or username", path: ["identifier"] },
        { message: "Enter your password", path: ["password"] },
        { message: "Check or clear this box", path: ["rememberMe"] },
      ],
    });
    expect(validate(null)).toEqual({ issues: [{ message: "Fill in the form" }] });
    expect(validate("ada")).toEqual({ issues: [{ message: "Fill in the form" }] });
  });
});

describe("isEmailIdentifier", () => {
  it("takes an at-sign for an e-mail address and anything else for a username", () => {
    expect(isEmailIdentifier("ada@example.test")).toBe(true);
    expect(isEmailIdentifier("ada_lovelace")).toBe(false);
  });
});

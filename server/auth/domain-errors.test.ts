import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { describe, expect, test } from "vitest";
import { DomainError } from "../../common/domain-error";
import { ACCOUNT_ERROR_CODES } from "../../common/error-codes";
import { toAPIError, withDomainErrors } from "./domain-errors";

describe("toAPIError", () => {
  test("keeps the catalogue's status, the code, the message and the details", () => {
    const error = toAPIError(DomainError.of(ACCOUNT_ERROR_CODES.SOLE_OWNER, [{ id: "o1" }]));
    expect(isAPIError(error)).toBe(true);
    expect(error.statusCode).toBe(400);
    const { message } = ACCOUNT_ERROR_CODES.SOLE_OWNER;
    expect(error.body).toEqual({ code: "SOLE_OWNER", message, details: [{ id: "o1" }] });
  });

  test("leaves out details a DomainError does not have", () => {
    const error = toAPIError(new DomainError("PROVIDER_UNAVAILABLE", "down"));
    expect(error.body).toEqual({ code: "PROVIDER_UNAVAILABLE", message: "down" });
  });
});

describe("withDomainErrors", () => {
  const failing = (error: Error) => async () => {
    throw error;
  };

  test("turns a DomainError thrown by a plugin's hook or the options' own hook into an APIError", async () => {
    const refusal = failing(new DomainError("FORBIDDEN", "no"));
    const options = withDomainErrors({
      hooks: { before: createAuthMiddleware(failing(new DomainError("VALIDATION_ERROR", "bad"))) },
      plugins: [{ id: "p", hooks: { after: [{ matcher: () => true, handler: refusal }] } }],
    });
    const invalid = { statusCode: 400, body: { code: "VALIDATION_ERROR" } };
    await expect(options.hooks.before!({} as never)).rejects.toMatchObject(invalid);
    const after = options.plugins[0]!.hooks!.after![0]!;
    await expect(after.handler()).rejects.toBeInstanceOf(APIError);
    const forbidden = { statusCode: 403, body: { code: "FORBIDDEN", message: "no" } };
    await expect(after.handler()).rejects.toMatchObject(forbidden);
  });

  test("lets any other error through unchanged", async () => {
    const cause = new Error("database down");
    const hook = { matcher: () => true, handler: failing(cause) };
    const options = withDomainErrors({ plugins: [{ id: "p", hooks: { before: [hook] } }] });
    await expect(options.plugins[0]!.hooks!.before![0]!.handler()).rejects.toBe(cause);
  });
});

import { describe, expect, it } from "vitest";
import { authLogLevel } from "./social-sign-in";

describe("authLogLevel", () => {
  it("logs a person's own sign-in outcomes at info, not error", () => {
    expect(authLogLevel("error", "email_not_verified")).toBe("info");
    expect(authLogLevel("error", "account_not_linked")).toBe("info");
  });

  it("keeps the deployment's errors at error, and the development provider's first discovery at debug", () => {
    expect(authLogLevel("error", "unable_to_create_user")).toBe("error");
    expect(authLogLevel("error", "State not found")).toBe("error");
    expect(authLogLevel("error", 'Discovery fetch failed for "dev": connection refused')).toBe("debug");
    expect(authLogLevel("warn", "Code not found")).toBe("warn");
  });
});

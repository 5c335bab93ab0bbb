import { describe, expect, it } from "vitest";
import { safeRedirect } from "./session";

describe("safeRedirect", () => {
  it("keeps a path of this app, with its query and hash", () => {
    expect(safeRedirect("/account/sessions")).toBe("/account/sessions");
    expect(safeRedirect("/invitations/abc?email=a%40b.c#x")).toBe("/invitations/abc?email=a%40b.c#x");
  });

  it("sends everything else home", () => {
    expect(safeRedirect(undefined)).toBe("/");
    expect(safeRedirect("")).toBe("/");
    expect(safeRedirect("https://evil.example/")).toBe("/");
    expect(safeRedirect("account")).toBe("/");
    expect(safeRedirect("javascript:alert(1)")).toBe("/");
  });

  it("refuses protocol-relative and backslash tricks that browsers read as another host", () => {
    expect(safeRedirect("//evil.example/path")).toBe("/");
    expect(safeRedirect("/\\evil.example")).toBe("/");
  });
});

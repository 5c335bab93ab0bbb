import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-error";
import { fetchSession, safeRedirect } from "./session";

describe("fetchSession", () => {
  afterEach(() => vi.unstubAllGlobals());
  const answer = (body: unknown, status = 200) =>
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json(body, { status })),
    );

  it("reads GET /api/auth/get-session with the cookies, and turns its dates into Dates", async () => {
    answer({
      user: { id: "u1", name: "Ada", createdAt: "2026-01-02T03:04:05.678Z" },
      session: { id: "s1", expiresAt: "2026-02-01T00:00:00.000Z" },
    });
    const session = await fetchSession();
    expect(vi.mocked(fetch)).toHaveBeenCalledWith(
      "/api/auth/get-session",
      expect.objectContaining({ credentials: "include" }),
    );
    expect(session?.user.name).toBe("Ada");
    expect(session?.user.createdAt).toEqual(new Date("2026-01-02T03:04:05.678Z"));
    expect(session?.session.expiresAt).toEqual(new Date("2026-02-01T00:00:00.000Z"));
  });

  it("answers null without a session", async () => {
    answer(null);
    expect(await fetchSession()).toBeNull();
  });

  it("throws an ApiError a person can act on", async () => {
    answer({ code: "TOO_MANY_REQUESTS", message: "Too many requests" }, 429);
    const error: unknown = await fetchSession().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).message).toBe("Too many attempts. Wait a minute, then try again.");
  });
});

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

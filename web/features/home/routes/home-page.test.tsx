import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { HomePage } from "./home-page";

function renderHome(search: { notice?: string; error?: string }) {
  renderPages({ "/": () => <HomePage notice={search.notice} error={search.error} /> });
}

// Signed out: GET /api/auth/get-session answers null.
beforeEach(() =>
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json(null)),
  ),
);
afterEach(() => vi.unstubAllGlobals());

describe("HomePage's notice and error", () => {
  it("shows the message of a known notice code", async () => {
    renderHome({ notice: "account-deleted" });
    await screen.findByRole("heading", { name: "The foundation for your SaaS" });
    expect(screen.getByRole("status").textContent).toBe("Your account was deleted.");
  });

  it("shows the message of a known error code", async () => {
    renderHome({ error: "INVALID_TOKEN" });
    expect((await screen.findByRole("alert")).textContent).toBe(
      "That link is invalid or has expired. Ask for a new one.",
    );
  });

  it.each([
    { notice: "Your account was suspended. Call 555-0100 to restore it." },
    { notice: "__proto__" },
    { error: "Call 555-0100" },
    { error: "toString" },
  ])("shows nothing for a value that is not a listed code (%o), never the address's text", async (search) => {
    renderHome(search);
    await screen.findByRole("heading", { name: "The foundation for your SaaS" });
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(document.body.textContent).not.toContain(search.notice ?? search.error);
  });
});

import { screen } from "@testing-library/react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { HomePage } from "./home-page";

// Signed out: GET /api/auth/get-session answers null.
beforeEach(() =>
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => Response.json(null)),
  ),
);
afterEach(() => vi.unstubAllGlobals());

it("shows the banned notice as an alert, as the sign-in page does", async () => {
  renderPages({ "/": () => <HomePage notice="account-banned" /> });
  expect((await screen.findByRole("alert")).textContent).toBe("You were signed out. Your account is banned.");
  expect(screen.queryByRole("status")).toBeNull();
});

import { screen } from "@testing-library/react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { SignInPage } from "./sign-in-page";

// GET /api/meta: no social providers, so the page is its form alone.
beforeEach(() =>
  vi.stubGlobal(
    "fetch",
    vi.fn(async () =>
      Response.json({
        devMailbox: false,
        billingSandbox: false,
        socialProviders: [],
        organizations: { whoMayCreate: "everyone", isDeletionDisabled: false, limit: null },
      }),
    ),
  ),
);
afterEach(() => vi.unstubAllGlobals());

it("says a ban signed the person out, as an alert rather than a success", async () => {
  renderPages({ "/sign-in": () => <SignInPage notice="account-banned" /> });
  expect((await screen.findByRole("alert")).textContent).toBe("You were signed out. Your account is banned.");
  expect(screen.queryByRole("status")).toBeNull();
});

import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { SignInPage } from "./sign-in-page";

function renderSignIn(notice: string | undefined) {
  renderPages({ "/sign-in": () => <SignInPage notice={notice} /> });
}

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

describe("SignInPage's notice", () => {
  it("shows the message of a known code", async () => {
    renderSignIn("password-changed");
    expect((await screen.findByRole("status")).textContent).toBe(
      "Your password was changed. Sign in with the new one.",
    );
  });

  it.each(["Your password expired: enter it at https://evil.example.test", "constructor", ""])(
    "shows nothing for a value that is not a listed code (%j), never the address's text",
    async (notice) => {
      renderSignIn(notice);
      await screen.findByRole("button", { name: "Sign in" });
      expect(screen.queryByRole("status")).toBeNull();
      if (notice) expect(document.body.textContent).not.toContain(notice);
    },
  );
});

import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { SecurityPage } from "./security-page";

vi.mock("../../../lib/auth-client", () => ({ authClient: { twoFactor: {} } }));

/** The Security page as an organization's second-factor policy opens it (web/lib/two-factor-required.ts). */
function renderPage(props: { twoFactorEnabled: boolean; required?: boolean; next?: string }) {
  return renderPages({ "/account/security": () => <SecurityPage {...props} /> });
}

describe("SecurityPage, sent by an organization's policy", () => {
  it("says why the person is here while the factor is off, and points to passkeys too", async () => {
    renderPage({ twoFactorEnabled: false, required: true, next: "/organizations/o1/settings" });
    expect(await screen.findByText("An organization you belong to requires a second factor")).not.toBeNull();
    expect(screen.getByRole("link", { name: "Sign-in methods" }).getAttribute("href")).toBe("/account/sign-in-methods");
    expect(screen.queryByRole("link", { name: "Go back to where you were" })).toBeNull();
  });

  it("offers the way back once the factor is on", async () => {
    renderPage({ twoFactorEnabled: true, required: true, next: "/organizations/o1/settings?tab=1" });
    const back = await screen.findByRole("link", { name: "Go back to where you were" });
    expect(back.getAttribute("href")).toBe("/organizations/o1/settings?tab=1");
    expect(screen.queryByText("An organization you belong to requires a second factor")).toBeNull();
  });

  it("shows neither without the policy's address", async () => {
    renderPage({ twoFactorEnabled: false });
    await screen.findByRole("button", { name: "Set up" });
    expect(screen.queryByText("An organization you belong to requires a second factor")).toBeNull();
  });
});

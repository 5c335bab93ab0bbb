import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { SignInPage } from "./sign-in-page";

const META = {
  devMailbox: false,
  billingSandbox: false,
  socialProviders: [],
  organizations: { whoMayCreate: "everyone", isDeletionDisabled: false, limit: null },
};

/**
 * The requests made, in one list for the whole file: better-auth's client keeps the fetch it was created with (the
 * first test's stub), so every stub records here.
 */
const calls: Array<{ path: string; body: unknown }> = [];

/** The API: the meta, a password sign-in refused with SSO_REQUIRED, and the SSO sign-in's answer. */
function stubServer() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost");
      const text = input instanceof Request ? await input.clone().text() : init?.body ? String(init.body) : "";
      const body = text ? (JSON.parse(text) as unknown) : undefined;
      calls.push({ path: url.pathname, body });
      if (url.pathname === "/api/auth/sign-in/email" || url.pathname === "/api/auth/sign-in/username")
        return Response.json(
          {
            code: "SSO_REQUIRED",
            message: "Your organization signs in with SSO",
            details: { organizationSlug: "acme", organizationName: "Acme" },
          },
          { status: 403 },
        );
      if (url.pathname === "/api/auth/sign-in/sso")
        return Response.json({ code: "NOT_FOUND", message: "No provider" }, { status: 404 });
      return Response.json(META);
    }),
  );
}

beforeEach(() => {
  calls.length = 0;
  stubServer();
});
afterEach(() => vi.unstubAllGlobals());

describe("SignInPage's single sign-on", () => {
  it("turns a password sign-in refused with SSO_REQUIRED into the SSO form, with the e-mail already in it", async () => {
    renderPages({ "/sign-in": () => <SignInPage /> });
    fireEvent.change(await screen.findByLabelText("E-mail or username"), { target: { value: "jane@acme.test" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "a-password" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));

    // The first sign-in loads better-auth's client and the SSO form's module: a busy machine takes a while.
    expect(await screen.findByText("Your organization signs you in with SSO", {}, { timeout: 5000 })).toBeTruthy();
    expect((screen.getByLabelText("Work e-mail") as HTMLInputElement).value).toBe("jane@acme.test");
    // No error above the password form: the refusal is not a mistake to fix there.
    expect(screen.queryByText("Your organization signs in with SSO")).toBeNull();
  });

  it("after a username sign-in refused with SSO_REQUIRED, continues to the organization the refusal names", async () => {
    renderPages({ "/sign-in": () => <SignInPage /> });
    fireEvent.change(await screen.findByLabelText("E-mail or username"), { target: { value: "jane_doe" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "a-password" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));

    fireEvent.click(await screen.findByRole("button", { name: "Continue to Acme's sign-in" }, { timeout: 5000 }));
    await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(calls.find((call) => call.path === "/api/auth/sign-in/sso")?.body).toEqual({
      organizationSlug: "acme",
      callbackURL: "/",
      errorCallbackURL: "/auth/error",
    });
  });

  it("asks for the work e-mail, posts it to /sign-in/sso, and says so when no organization signs in with that domain", async () => {
    renderPages({ "/sign-in": () => <SignInPage /> });
    fireEvent.click(await screen.findByRole("button", { name: "Continue with SSO" }));
    fireEvent.change(await screen.findByLabelText("Work e-mail", {}, { timeout: 5000 }), {
      target: { value: "ada@nowhere.test" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));

    expect((await screen.findByRole("alert", {}, { timeout: 5000 })).textContent).toBe(
      "No organization signs in with SSO for this e-mail domain. Check the address, or sign in with your password.",
    );
    const ssoCall = calls.find((call) => call.path === "/api/auth/sign-in/sso");
    expect(ssoCall?.body).toEqual({ email: "ada@nowhere.test", callbackURL: "/", errorCallbackURL: "/auth/error" });

    // Back to the password form, which kept its place.
    fireEvent.click(screen.getByRole("button", { name: "Sign in with a password instead" }));
    await waitFor(() => expect(screen.queryByLabelText("Work e-mail")).toBeNull());
    expect(screen.getByLabelText("E-mail or username")).toBeTruthy();
  });
});

import { screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { bannedUserMessage } from "../../../../common/ban-message";
import { formatDateTime } from "../../../lib/format";
import { renderPages } from "../../../test/render-pages";
import { SignInErrorPage } from "./sign-in-error-page";

// What GET /api/auth/get-session answers (the session query reads it with fetch).
let sessionBody: unknown = null;

function renderPage(error: string | undefined, options: { signedIn?: boolean; description?: string } = {}) {
  sessionBody = options.signedIn ? { user: { id: "user_1" }, session: { id: "session_1" } } : null;
  renderPages({
    "/auth/error": () => <SignInErrorPage error={error} errorDescription={options.description} />,
  });
}

beforeEach(() => {
  sessionBody = null;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) =>
      String(input).endsWith("/api/auth/get-session")
        ? Response.json(sessionBody)
        : new Response(
            JSON.stringify({
              devMailbox: true,
              billingSandbox: false,
              socialProviders: [],
              organizations: { whoMayCreate: "everyone", isDeletionDisabled: false, limit: null },
            }),
            { status: 200, headers: { "content-type": "application/json" } },
          ),
    ),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe("SignInErrorPage", () => {
  it("explains an expired state and leads a signed-out person back to sign-in", async () => {
    renderPage("state_mismatch");
    await screen.findByRole("heading", { name: "This sign-in expired" });
    expect(screen.getByRole("alert").textContent).toContain("within 10 minutes");
    await screen.findByRole("link", { name: "Back to sign-in" });
    screen.getByRole("link", { name: "Create one" });
  });

  it("reads a cancellation and a confirmation mail as the next step, with the dev mailbox at hand", async () => {
    renderPage("email_not_verified");
    await screen.findByRole("heading", { name: "Confirm your e-mail address" });
    expect(screen.queryByRole("alert")).toBeNull();
    await screen.findByRole("link", { name: "dev mailbox" });
    // They have an account now: no offer to create one.
    expect(screen.queryByRole("link", { name: "Create one" })).toBeNull();
  });

  it("sends someone who was connecting a provider back to their sign-in methods", async () => {
    renderPage("email_does_not_match", { signedIn: true });
    await screen.findByRole("heading", { name: "That account uses another e-mail address" });
    await screen.findByRole("link", { name: "Back to sign-in methods" });
  });

  it.each([
    [
      "SSO_SAML_RESPONSE_REFUSED",
      "Your identity provider's answer was refused",
      "Atrium could not accept the sign-in your identity provider sent: it may have expired, been used already, " +
        "or not match this connection. " +
        "Start again; if it keeps happening, ask your administrator to check single sign-on.",
    ],
    [
      "SSO_DOMAIN_NOT_VERIFIED",
      "Single sign-on is not ready yet",
      "Your organization has not finished setting up single sign-on: its e-mail domain is not verified yet. " +
        "Ask your administrator, or sign in another way for now.",
    ],
    [
      "SSO_EMAIL_OUTSIDE_DOMAIN",
      "Use your work account",
      "This organization's single sign-on signs in addresses on its own domain only. " +
        "Sign in at your identity provider with your work account, then try again.",
    ],
    [
      "PLAN_LIMIT_REACHED",
      "Your organization has no free seat",
      "Your organization's plan has no room for another member, so you could not join it. " +
        "Ask an owner to add seats, then sign in again.",
    ],
  ])("explains an SSO sign-in the server refused with %s", async (code, title, message) => {
    renderPage(code);
    await screen.findByRole("heading", { name: title });
    expect(screen.getByRole("alert").textContent).toBe(message);
    await screen.findByRole("link", { name: "Back to sign-in" });
  });

  it.each(["<b>call us</b>", "__proto__", "toString", undefined])(
    "shows the general explanation for an unknown code (%s), never the address's text",
    async (code) => {
      renderPage(code);
      await screen.findByRole("heading", { name: "Signing in did not finish" });
      if (code) expect(document.body.textContent).not.toContain(code);
    },
  );

  it("tells a banned person until when, in their own time, reading only the end from the description", async () => {
    const until = new Date("2030-04-05T06:07:08.000Z");
    renderPage("banned", { description: bannedUserMessage(until) });
    await screen.findByRole("heading", { name: "This account is banned" });
    expect(screen.getByRole("alert").textContent).toBe(
      `This account is banned until ${formatDateTime(until)}. Contact the administrators if you think this is a mistake.`,
    );
    expect(document.body.textContent).not.toContain("2030-04-05T06:07:08.000Z");
    // They have an account: no offer to create one.
    expect(screen.queryByRole("link", { name: "Create one" })).toBeNull();
  });

  it.each([
    ["banned", bannedUserMessage(null)],
    ["BANNED_USER", "<b>Call 555-0100 to get unbanned</b>"],
    ["banned", undefined],
  ])("says a ban without an end is in force (%s), never showing the description", async (code, description) => {
    renderPage(code, { description });
    await screen.findByRole("heading", { name: "This account is banned" });
    expect(screen.getByRole("alert").textContent).toBe(
      "This account is banned. Contact the administrators if you think this is a mistake.",
    );
    expect(document.body.textContent).not.toContain("555-0100");
  });
});

import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter } from "@tanstack/react-router";
import { render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../../lib/query-client";
import { SignInErrorPage } from "./sign-in-error-page";

const authClient = vi.hoisted(() => ({ getSession: vi.fn() }));
vi.mock("../../../lib/auth-client", () => ({ authClient }));

function renderPage(error: string | undefined, options: { signedIn?: boolean } = {}) {
  authClient.getSession.mockResolvedValue({ data: options.signedIn ? { user: { id: "user_1" }, session: { id: "session_1" } } : null, error: null });
  const rootRoute = createRootRoute();
  const route = createRoute({ getParentRoute: () => rootRoute, path: "/auth/error", component: () => <SignInErrorPage error={error} /> });
  const router = createRouter({ routeTree: rootRoute.addChildren([route]), history: createMemoryHistory({ initialEntries: ["/auth/error"] }) });
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  authClient.getSession.mockReset();
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () =>
        new Response(
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
    expect(await screen.findByRole("heading", { name: "This sign-in expired" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toContain("within 10 minutes");
    expect(await screen.findByRole("link", { name: "Back to sign-in" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Create one" })).toBeTruthy();
  });

  it("reads a cancellation and a confirmation mail as the next step, with the dev mailbox at hand", async () => {
    renderPage("email_not_verified");
    expect(await screen.findByRole("heading", { name: "Confirm your e-mail address" })).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(await screen.findByRole("link", { name: "dev mailbox" })).toBeTruthy();
    // They have an account now: no offer to create one.
    expect(screen.queryByRole("link", { name: "Create one" })).toBeNull();
  });

  it("sends someone who was connecting a provider back to their sign-in methods", async () => {
    renderPage("email_does_not_match", { signedIn: true });
    expect(await screen.findByRole("heading", { name: "That account uses another e-mail address" })).toBeTruthy();
    expect(await screen.findByRole("link", { name: "Back to sign-in methods" })).toBeTruthy();
  });

  it.each(["<b>call us</b>", "__proto__", "toString", undefined])(
    "shows the general explanation for an unknown code (%s), never the address's text",
    async (code) => {
      renderPage(code);
      expect(await screen.findByRole("heading", { name: "Signing in did not finish" })).toBeTruthy();
      if (code) expect(document.body.textContent).not.toContain(code);
    },
  );
});

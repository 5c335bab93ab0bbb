import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { YourOrganizations } from "./your-organizations";

const JOINABLE = { id: "org_9", name: "Rocket Club", slug: "rocket-club", domain: "rocket.test" };
let joinable: (typeof JOINABLE)[] = [];
let joins: string[] = [];

// Signed in, in no organization yet, with no invitation; the joinable list as the test sets it.
beforeEach(() => {
  joinable = [];
  joins = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input), "http://localhost");
      const method = input instanceof Request ? input.method : (init?.method ?? "GET");
      const now = new Date().toISOString();
      if (url.pathname === "/api/auth/get-session")
        return Response.json({
          user: { id: "user_me", name: "Ada", email: "ada@rocket.test", emailVerified: true },
          session: { id: "s1", userId: "user_me", activeOrganizationId: null, expiresAt: now },
        });
      if (url.pathname === "/api/meta") return Response.json({ organizations: { whoMayCreate: "everyone" } });
      if (url.pathname === "/api/joinable-organizations") return Response.json(joinable);
      if (url.pathname === `/api/joinable-organizations/${JOINABLE.id}/join` && method === "POST") {
        joins.push(JOINABLE.id);
        joinable = [];
        return Response.json(JOINABLE);
      }
      return Response.json([]);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe("joining an organization by verified domain, from the signed-in home", () => {
  it("offers the organizations of the person's domain, and joins one", async () => {
    joinable = [JOINABLE];
    const { notify } = renderPages({ "/": () => <YourOrganizations /> });
    await screen.findByRole("heading", { name: "Join your team" });
    screen.getByText("For @rocket.test addresses");
    await userEvent.setup().click(screen.getByRole("button", { name: "Join Rocket Club" }));
    await vi.waitFor(() => expect(notify.success).toHaveBeenCalledWith("You joined Rocket Club"));
    expect(joins).toEqual([JOINABLE.id]);
    await vi.waitFor(() => expect(screen.queryByRole("heading", { name: "Join your team" })).toBeNull());
  });

  it("shows nothing about joining when no organization offers it", async () => {
    renderPages({ "/": () => <YourOrganizations /> });
    await screen.findByRole("heading", { name: "Your organizations" });
    await screen.findByText("No organizations yet");
    expect(screen.queryByRole("heading", { name: "Join your team" })).toBeNull();
  });
});

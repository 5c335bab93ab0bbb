import { QueryClientProvider } from "@tanstack/react-query";
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from "@tanstack/react-router";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminUserDetail } from "../../../../common/admin.schemas";
import { createQueryClient } from "../../../lib/query-client";
import { banExpiresIn } from "../components/ban-user-dialog";
import { AdminUserPage } from "./admin-user-page";

// Reads come from the app's API (fetch); sessions and every action go through better-auth's client.
const authClient = vi.hoisted(() => ({
  getSession: vi.fn(),
  $fetch: vi.fn(),
  admin: {
    listUserSessions: vi.fn(),
    banUser: vi.fn(),
    unbanUser: vi.fn(),
    setRole: vi.fn(),
    setUserPassword: vi.fn(),
    removeUser: vi.fn(),
    revokeUserSession: vi.fn(),
    revokeUserSessions: vi.fn(),
  },
}));
vi.mock("../../../lib/auth-client", () => ({ authClient }));

const ADMIN_ID = "user_admin";
const USER_ID = "user_grace";
const ok = (data: unknown) => ({ data, error: null });

function detail(overrides: Partial<AdminUserDetail["user"]> = {}): AdminUserDetail {
  return {
    user: {
      id: USER_ID,
      name: "Grace Hopper",
      email: "grace@example.test",
      username: "grace",
      displayUsername: "Grace",
      image: null,
      role: "user",
      isPlatformAdmin: false,
      emailVerified: true,
      banned: false,
      banReason: null,
      banExpires: null,
      createdAt: "2026-01-05T10:00:00.000Z",
      updatedAt: "2026-01-06T10:00:00.000Z",
      ...overrides,
    },
    signInMethods: [
      { providerId: "credential", email: null, createdAt: "2026-01-05T10:00:00.000Z" },
      { providerId: "dev", email: "grace@dev.test", createdAt: "2026-01-07T10:00:00.000Z" },
    ],
    organizations: [
      { id: "org_1", name: "Navy Labs", slug: "navy", role: "owner", joinedAt: "2026-01-08T10:00:00.000Z" },
    ],
    secondFactors: { totp: false, passkeys: 0 },
  };
}

const session = {
  id: "session_1",
  token: "token_1",
  userId: USER_ID,
  userAgent:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  ipAddress: "203.0.113.7",
  createdAt: "2026-01-09T10:00:00.000Z",
  updatedAt: "2026-01-09T11:00:00.000Z",
  expiresAt: "2999-01-01T00:00:00.000Z",
  impersonatedBy: null,
};

let user: AdminUserDetail;

beforeEach(() => {
  user = detail();
  authClient.getSession.mockReset().mockResolvedValue(ok(null));
  authClient.$fetch.mockReset();
  for (const mock of Object.values(authClient.admin)) mock.mockReset();
  authClient.admin.listUserSessions.mockResolvedValue(ok({ sessions: [session] }));
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), "http://localhost");
      if (url.pathname === "/api/auth/get-session") return Response.json(null);
      const body =
        url.pathname === `/api/admin/users/${USER_ID}`
          ? user
          : url.pathname === "/api/admin/audit-log"
            ? { entries: [], total: 0, limit: 10, offset: 0 }
            : url.pathname === "/api/meta"
              ? {
                  devMailbox: true,
                  billingSandbox: false,
                  socialProviders: [{ id: "dev", name: "Dev identity provider" }],
                  organizations: { whoMayCreate: "everyone", isDeletionDisabled: false, limit: null },
                }
              : null;
      return new Response(JSON.stringify(body ?? { code: "NOT_FOUND", message: "no route" }), {
        status: body ? 200 : 404,
        headers: { "content-type": "application/json" },
      });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderPage({ currentUserId = ADMIN_ID, userId = USER_ID }: { currentUserId?: string; userId?: string } = {}) {
  const notify = { success: vi.fn(), error: vi.fn() };
  const rootRoute = createRootRoute();
  const userRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: "/admin/users/$userId",
    component: function User() {
      return (
        <AdminUserPage
          userId={userRoute.useParams().userId}
          currentUserId={currentUserId}
          currentSessionId="session_admin"
        />
      );
    },
  });
  const placeholders = [
    "/admin",
    "/admin/audit-log",
    "/admin/organizations/$organizationId",
    "/account",
    "/account/sessions",
    "/",
  ].map((path) => createRoute({ getParentRoute: () => rootRoute, path, component: () => <p>Page at {path}</p> }));
  const router = createRouter({
    routeTree: rootRoute.addChildren([userRoute, ...placeholders]),
    history: createMemoryHistory({ initialEntries: [`/admin/users/${userId}`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient(notify)}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { notify, router };
}

async function openAction(name: string) {
  const actor = userEvent.setup();
  await actor.click(await screen.findByRole("button", { name }));
  return { actor, dialog: await screen.findByRole("dialog") };
}

describe("banExpiresIn", () => {
  const now = new Date(2026, 0, 10, 15, 30, 0);

  it("gives each preset's length in seconds, and nothing for a permanent ban", () => {
    expect(banExpiresIn({ duration: "1h" }, now)).toBe(3600);
    expect(banExpiresIn({ duration: "1d" }, now)).toBe(86_400);
    expect(banExpiresIn({ duration: "7d" }, now)).toBe(604_800);
    expect(banExpiresIn({ duration: "permanent" }, now)).toBeUndefined();
  });

  it("ends a ban on a date at local midnight as that day starts", () => {
    // From 15:30 on the 10th to 00:00 on the 12th: one day and eight and a half hours.
    expect(banExpiresIn({ duration: "date", until: "2026-01-12" }, now)).toBe(86_400 + 8.5 * 3600);
    expect(banExpiresIn({ duration: "date", until: "" }, now)).toBeUndefined();
  });
});

describe("AdminUserPage", () => {
  it("shows the profile, sign-in methods, organizations, sessions and audit log", async () => {
    renderPage();
    await screen.findByRole("heading", { name: "Grace Hopper" });
    const methods = screen.getByRole("heading", { name: "Sign-in methods" }).closest("section") as HTMLElement;
    within(methods).getByText("Password");
    await within(methods).findByText("Dev identity provider");
    expect(screen.getByRole("link", { name: "Navy Labs" })).toHaveProperty("pathname", "/admin/organizations/org_1");
    const sessions = await screen.findByRole("table", { name: "Sessions of Grace Hopper" });
    within(sessions).getByText("Chrome on macOS");
    within(sessions).getByText("203.0.113.7");
    await screen.findByText("Nothing recorded yet");
    expect(authClient.admin.listUserSessions).toHaveBeenCalledWith({ userId: USER_ID });
  });

  it("bans for one hour with the reason given", async () => {
    authClient.admin.banUser.mockResolvedValue(ok({ user: {} }));
    const { notify } = renderPage();
    const { actor, dialog } = await openAction("Ban");

    await actor.click(within(dialog).getByRole("radio", { name: "1 hour" }));
    await actor.click(within(dialog).getByRole("button", { name: "Ban Grace Hopper" }));
    await within(dialog).findByText("Say why, for the audit log");
    expect(authClient.admin.banUser).not.toHaveBeenCalled();

    await actor.type(within(dialog).getByLabelText("Reason"), "Spam");
    await actor.click(within(dialog).getByRole("button", { name: "Ban Grace Hopper" }));
    await waitFor(() =>
      expect(authClient.admin.banUser).toHaveBeenCalledWith({ userId: USER_ID, banReason: "Spam", banExpiresIn: 3600 }),
    );
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("Grace Hopper is banned"));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("bans until the start of a chosen day, or permanently", async () => {
    authClient.admin.banUser.mockResolvedValue(ok({ user: {} }));
    renderPage();
    const { actor, dialog } = await openAction("Ban");
    await actor.type(within(dialog).getByLabelText("Reason"), "Chargebacks");

    await actor.click(within(dialog).getByRole("radio", { name: /Until a date/ }));
    const day = new Date();
    day.setDate(day.getDate() + 10);
    const until = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
    fireEvent.change(within(dialog).getByLabelText("Ban ends on"), { target: { value: until } });
    await actor.click(within(dialog).getByRole("button", { name: "Ban Grace Hopper" }));

    await waitFor(() => expect(authClient.admin.banUser).toHaveBeenCalledTimes(1));
    const expected = (new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime() - Date.now()) / 1000;
    const sent = authClient.admin.banUser.mock.calls[0]?.[0] as { banExpiresIn: number };
    expect(Math.abs(sent.banExpiresIn - expected)).toBeLessThan(5);

    const again = await openAction("Ban");
    await again.actor.type(within(again.dialog).getByLabelText("Reason"), "Fraud");
    await again.actor.click(within(again.dialog).getByRole("radio", { name: /Permanently/ }));
    await again.actor.click(within(again.dialog).getByRole("button", { name: "Ban Grace Hopper" }));
    await waitFor(() =>
      expect(authClient.admin.banUser).toHaveBeenLastCalledWith({ userId: USER_ID, banReason: "Fraud" }),
    );
  });

  it("shows a ban in force and lifts it after confirmation", async () => {
    user = detail({ banned: true, banReason: "Spam", banExpires: null });
    authClient.admin.unbanUser.mockResolvedValue(ok({ user: {} }));
    renderPage();
    await screen.findByText("Banned permanently");
    screen.getByText("Reason: Spam");

    const { actor, dialog } = await openAction("Unban");
    await actor.click(within(dialog).getByRole("button", { name: "Unban" }));
    await waitFor(() => expect(authClient.admin.unbanUser).toHaveBeenCalledWith({ userId: USER_ID }));
  });

  it("deletes only once the e-mail address is typed, then goes back to the list", async () => {
    authClient.admin.removeUser.mockResolvedValue(ok({ success: true }));
    const { router } = renderPage();
    const { actor, dialog } = await openAction("Delete user");
    const confirm = within(dialog).getByRole("button", { name: "Delete user" });
    expect(confirm.hasAttribute("disabled")).toBe(true);

    const field = within(dialog).getByLabelText(/to confirm/);
    await actor.type(field, "grace@example");
    expect(confirm.hasAttribute("disabled")).toBe(true);
    await actor.type(field, ".test");
    expect(confirm.hasAttribute("disabled")).toBe(false);

    await actor.click(confirm);
    await waitFor(() => expect(authClient.admin.removeUser).toHaveBeenCalledWith({ userId: USER_ID }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/admin"));
  });

  it("names the organizations a sole owner leaves behind, each a link to its page, when the deletion is refused", async () => {
    authClient.admin.removeUser.mockResolvedValue({
      data: null,
      error: {
        status: 400,
        code: "SOLE_OWNER",
        message: "sole owner",
        details: [{ id: "org_acme", name: "Acme", slug: "acme" }],
      },
    });
    const { router } = renderPage();
    const { actor, dialog } = await openAction("Delete user");
    await actor.type(within(dialog).getByLabelText(/to confirm/), "grace@example.test");
    await actor.click(within(dialog).getByRole("button", { name: "Delete user" }));

    const list = await within(dialog).findByRole("list", { name: "Organizations they own alone" });
    expect(within(list).getByRole("link", { name: "Acme" })).toHaveProperty(
      "pathname",
      "/admin/organizations/org_acme",
    );
    expect(within(dialog).getByRole("alert").textContent).toContain("the only owner of organizations");
    expect(router.state.location.pathname).not.toBe("/admin");
  });

  it("shows the server's refusal of a role change in the dialog", async () => {
    user = detail({ role: "admin", isPlatformAdmin: true });
    authClient.admin.setRole.mockResolvedValue({
      data: null,
      error: { status: 400, code: "LAST_PLATFORM_ADMIN", message: "The last platform admin cannot be demoted" },
    });
    const { notify } = renderPage();
    const { actor, dialog } = await openAction("Change role");

    await actor.click(within(dialog).getByRole("radio", { name: /^User/ }));
    within(dialog).getByText("Grace Hopper will lose access to this console and everything in it.");
    await actor.click(within(dialog).getByRole("button", { name: "Make regular user" }));
    expect(await within(dialog).findByRole("alert")).toHaveProperty(
      "textContent",
      "This is the last platform admin. Make someone else a platform admin first.",
    );
    expect(authClient.admin.setRole).toHaveBeenCalledWith({ userId: USER_ID, role: "user" });
    expect(notify.error).not.toHaveBeenCalled();
  });

  it("impersonates with a reason, through the endpoint that records it", async () => {
    authClient.$fetch.mockResolvedValue(ok({ session: {}, user: {} }));
    const { router } = renderPage();
    const { actor, dialog } = await openAction("Impersonate");
    expect(dialog.textContent).toContain("for at most 1 hour");

    await actor.type(within(dialog).getByLabelText("Reason"), "Ticket 42");
    await actor.click(within(dialog).getByRole("button", { name: "Impersonate Grace Hopper" }));
    await waitFor(() =>
      expect(authClient.$fetch).toHaveBeenCalledWith("/admin/impersonate-user", {
        method: "POST",
        body: { userId: USER_ID, reason: "Ticket 42" },
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("offers no impersonation of a platform admin", async () => {
    user = detail({ role: "admin", isPlatformAdmin: true });
    renderPage();
    await screen.findByText("Platform admins cannot be impersonated.");
    expect(screen.queryByRole("button", { name: "Impersonate" })).toBeNull();
    screen.getByRole("button", { name: "Change role" });
  });

  it("offers no action on the admin's own account, and leaves their sessions to Account settings", async () => {
    renderPage({ currentUserId: USER_ID });
    await screen.findByText("This is your account");
    for (const name of ["Change role", "Set password", "Ban", "Impersonate", "Delete user"]) {
      expect(screen.queryByRole("button", { name })).toBeNull();
    }
    await screen.findByRole("table", { name: "Sessions of Grace Hopper" });
    expect(screen.queryByRole("button", { name: /^Revoke/ })).toBeNull();
    screen.getByRole("link", { name: "Account settings › Sessions" });
  });

  it("revokes one session after confirmation", async () => {
    authClient.admin.revokeUserSession.mockResolvedValue(ok({ success: true }));
    renderPage();
    const { actor, dialog } = await openAction("Revoke Chrome on macOS (203.0.113.7)");
    await actor.click(within(dialog).getByRole("button", { name: "Revoke session" }));
    await waitFor(() => expect(authClient.admin.revokeUserSession).toHaveBeenCalledWith({ sessionToken: "token_1" }));
  });

  it("says so when the user does not exist", async () => {
    renderPage({ userId: "user_gone" });
    await screen.findByText("There is no such user");
    screen.getByRole("link", { name: "All users" });
  });
});

describe("resetting a user's second factors", () => {
  /** The page's fetch, with the reset endpoint answering `answer` and the calls to it recorded. */
  function stubReset(answer: { status: number; body: unknown }) {
    const pageFetch = vi.mocked(fetch);
    const resets: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost");
        if (url.pathname !== `/api/admin/users/${USER_ID}/two-factor/reset`) return pageFetch(input, init);
        resets.push(JSON.parse(String(input instanceof Request ? await input.text() : init?.body)));
        return Response.json(answer.body, { status: answer.status });
      }),
    );
    return resets;
  }

  it("is offered only to a user who has a second factor, saying which", async () => {
    renderPage();
    await screen.findByRole("button", { name: "Change role" });
    expect(screen.queryByRole("button", { name: "Reset second factors" })).toBeNull();
  });

  it("asks for a reason, then resets and closes", async () => {
    user = { ...detail(), secondFactors: { totp: true, passkeys: 2 } };
    const resets = stubReset({ status: 200, body: { totp: true, passkeys: 2, sessionsRevoked: 1 } });
    const { notify } = renderPage();
    await screen.findByText(/An authenticator app and 2 passkeys\./);
    const { actor, dialog } = await openAction("Reset second factors");
    expect(dialog.textContent).toContain("every session of Grace Hopper is signed out");

    await actor.click(within(dialog).getByRole("button", { name: "Reset second factors" }));
    await within(dialog).findByText("Say why, for the audit log");
    expect(resets).toEqual([]);

    await actor.type(within(dialog).getByLabelText("Reason"), "Lost phone; identity checked on a call");
    await actor.click(within(dialog).getByRole("button", { name: "Reset second factors" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(resets).toEqual([{ reason: "Lost phone; identity checked on a call" }]);
    expect(notify.success).toHaveBeenCalledWith("The second factors of Grace Hopper were reset");
  });

  it("shows the server's refusal in the dialog", async () => {
    user = { ...detail(), secondFactors: { totp: false, passkeys: 1 } };
    stubReset({ status: 400, body: { code: "NO_SECOND_FACTOR", message: "This user has no second factor to reset" } });
    renderPage();
    await screen.findByText(/^1 passkey\./);
    const { actor, dialog } = await openAction("Reset second factors");
    await actor.type(within(dialog).getByLabelText("Reason"), "Ticket 7");
    await actor.click(within(dialog).getByRole("button", { name: "Reset second factors" }));
    await within(dialog).findByText("This user has no second factor to reset.");
  });
});

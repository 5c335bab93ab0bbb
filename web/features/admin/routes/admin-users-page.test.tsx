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
import type { AdminUserList, AdminUserListItem } from "../../../../common/admin.schemas";
import { userListSearchSchema } from "../../../app/routes/list-search";
import { createQueryClient } from "../../../lib/query-client";
import { AdminUsersPage } from "./admin-users-page";

// The list comes from the app's API (fetch); only the create dialog's username check would reach better-auth.
const authClient = vi.hoisted(() => ({ isUsernameAvailable: vi.fn(), admin: { createUser: vi.fn() } }));
vi.mock("../../../lib/auth-client", () => ({ authClient }));

const ada: AdminUserListItem = {
  id: "user_ada",
  name: "Ada Lovelace",
  email: "ada@example.test",
  username: "ada",
  image: null,
  role: "admin",
  isPlatformAdmin: true,
  emailVerified: true,
  banned: false,
  banReason: null,
  banExpires: null,
  createdAt: "2026-01-05T10:00:00.000Z",
};
const bob: AdminUserListItem = {
  ...ada,
  id: "user_bob",
  name: "Bob Banned",
  email: "bob@example.test",
  username: null,
  role: "user",
  isPlatformAdmin: false,
  emailVerified: false,
  banned: true,
  banReason: "Spam",
  banExpires: null,
};

type Answer = { status?: number; body: unknown };
let answer: (url: URL) => Answer;
let listCalls: URL[];

beforeEach(() => {
  authClient.isUsernameAvailable.mockReset().mockResolvedValue({ data: { available: true }, error: null });
  authClient.admin.createUser.mockReset();
  listCalls = [];
  answer = (url) => ({
    body: {
      users: [ada, bob],
      total: 2,
      totalIsLowerBound: false,
      limit: Number(url.searchParams.get("limit")),
      offset: 0,
    } satisfies AdminUserList,
  });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), "http://localhost");
      if (url.pathname !== "/api/admin/users")
        return new Response(JSON.stringify({ code: "NOT_FOUND", message: "no route" }), { status: 404 });
      listCalls.push(url);
      const { status = 200, body } = answer(url);
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/**
 * The page under a route that validates its search as the app's /admin does, and writes changes back to the address.
 * `loaderMs` holds each navigation in its loader that long, as the app's list loader does while the list loads.
 */
function renderPage(search = "", { loaderMs = 0 } = {}) {
  const rootRoute = createRootRoute();
  const usersRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: "/admin",
    validateSearch: userListSearchSchema,
    loaderDeps: ({ search: deps }) => deps,
    loader: () => new Promise((resolve) => setTimeout(resolve, loaderMs)),
    component: function Users() {
      const navigate = usersRoute.useNavigate();
      return (
        <AdminUsersPage
          search={usersRoute.useSearch()}
          onSearchChange={(update, options) =>
            navigate({
              search: (address: object) => update(userListSearchSchema.parse(address)) as never,
              replace: options?.replace,
            })
          }
        />
      );
    },
  });
  const userRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: "/admin/users/$userId",
    component: () => <p>A user&apos;s page</p>,
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([usersRoute, userRoute]),
    history: createMemoryHistory({ initialEntries: [`/admin${search}`] }),
  });
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router };
}

const lastQuery = () => Object.fromEntries(listCalls.at(-1)?.searchParams ?? []);

describe("AdminUsersPage", () => {
  it("reads the whole view from the address and asks the server for exactly that", async () => {
    renderPage(
      "?q=ada&role=admin&status=active&verified=yes&createdFrom=2026-01-01&createdTo=2026-02-01&sort=email&order=asc&limit=50&offset=0",
    );

    expect(await screen.findByRole("link", { name: "Ada Lovelace" })).toHaveProperty(
      "pathname",
      "/admin/users/user_ada",
    );
    expect(lastQuery()).toEqual({
      q: "ada",
      role: "admin",
      status: "active",
      verified: "yes",
      createdFrom: "2026-01-01",
      createdTo: "2026-02-01",
      sort: "email",
      order: "asc",
      limit: "50",
      offset: "0",
    });
    expect(screen.getByLabelText<HTMLInputElement>("Search users").value).toBe("ada");
    expect(screen.getByLabelText<HTMLSelectElement>("Role").value).toBe("admin");
    expect(screen.getByLabelText<HTMLSelectElement>("Status").value).toBe("active");
    expect(screen.getByLabelText<HTMLSelectElement>("E-mail").value).toBe("yes");
    expect(screen.getByLabelText<HTMLInputElement>("Signed up from").value).toBe("2026-01-01");
    expect(screen.getByLabelText<HTMLInputElement>("Signed up until").value).toBe("2026-02-01");
    expect(screen.getByLabelText<HTMLSelectElement>("Sort by").value).toBe("email:asc");
    expect(screen.getByLabelText<HTMLSelectElement>("Rows per page").value).toBe("50");
    expect(screen.getByRole("status").textContent).toBe("2 users");
  });

  it("falls back to the defaults for values it cannot read, instead of failing", async () => {
    renderPage("?limit=7&sort=password&order=sideways&role=root&offset=-3&createdFrom=2026-13-45&verified=maybe");

    await screen.findByRole("link", { name: "Bob Banned" });
    expect(lastQuery()).toEqual({ sort: "created", order: "desc", limit: "25", offset: "0" });
  });

  it("keeps a date range that runs backwards from reaching the server", async () => {
    renderPage("?createdFrom=2026-03-01&createdTo=2026-02-01");
    await screen.findByRole("link", { name: "Ada Lovelace" });
    expect(lastQuery()).toMatchObject({ createdFrom: "2026-03-01" });
    expect(lastQuery()).not.toHaveProperty("createdTo");
  });

  it("says so when the range typed runs backwards, and keeps the list as it was", async () => {
    const { router } = renderPage("?createdFrom=2026-03-01");
    await screen.findByRole("link", { name: "Ada Lovelace" });
    fireEvent.change(screen.getByLabelText("Signed up until"), { target: { value: "2026-02-01" } });
    await screen.findByText("Choose a day on or after the start");
    expect(screen.getByLabelText("Signed up until").getAttribute("aria-invalid")).toBe("true");
    expect(router.state.location.search).not.toHaveProperty("createdTo");
  });

  it("writes each filter, the sort, the page size and the search back to the address, from the first page", async () => {
    const user = userEvent.setup();
    const { router } = renderPage("?offset=25");
    await screen.findByRole("link", { name: "Ada Lovelace" });

    await user.selectOptions(screen.getByLabelText("Role"), "user");
    await waitFor(() => expect(router.state.location.search).toMatchObject({ role: "user", offset: 0 }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ role: "user", offset: "0" }));

    await user.selectOptions(screen.getByLabelText("Status"), "banned");
    await user.selectOptions(screen.getByLabelText("E-mail"), "no");
    fireEvent.change(screen.getByLabelText("Signed up from"), { target: { value: "2026-01-01" } });
    await user.selectOptions(screen.getByLabelText("Sort by"), "name:asc");
    await user.selectOptions(screen.getByLabelText("Rows per page"), "100");
    await waitFor(() =>
      expect(router.state.location.search).toMatchObject({
        role: "user",
        status: "banned",
        verified: "no",
        createdFrom: "2026-01-01",
        sort: "name",
        order: "asc",
        limit: 100,
      }),
    );

    await user.type(screen.getByLabelText("Search users"), "bob");
    await waitFor(() => expect(router.state.location.search).toMatchObject({ q: "bob", status: "banned" }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ q: "bob", status: "banned", sort: "name", limit: "100" }));
  });

  it("keeps a filter chosen while the list loads when the search typed just before it lands", async () => {
    const user = userEvent.setup();
    const { router } = renderPage("", { loaderMs: 600 });
    await screen.findByRole("link", { name: "Ada Lovelace" });

    await user.type(screen.getByLabelText("Search users"), "bob");
    await user.selectOptions(screen.getByLabelText("Role"), "user");
    await waitFor(() => expect(router.state.location.search).toMatchObject({ q: "bob", role: "user" }), {
      timeout: 3000,
    });
    await waitFor(() => expect(lastQuery()).toMatchObject({ q: "bob", role: "user" }), { timeout: 3000 });
  });

  it("shows the search of the address again when Back changes it, without sending the older one back", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderPage();
    await screen.findByRole("link", { name: "Ada Lovelace" });
    await user.type(screen.getByLabelText("Search users"), "ada");
    // Longer than the search box waits before it writes to the address.
    await vi.advanceTimersByTimeAsync(1000);
    await waitFor(() => expect(router.state.location.search).toMatchObject({ q: "ada" }));

    router.history.back();
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>("Search users").value).toBe(""));
    await vi.advanceTimersByTimeAsync(1000);
    expect(router.state.location.search).not.toHaveProperty("q");
    expect(listCalls.filter((url) => url.searchParams.get("q") === "ada")).toHaveLength(1);
  });

  it("says when nothing matches and clears every filter, keeping the sort", async () => {
    answer = () => ({ body: { users: [], total: 0, limit: 25, offset: 0 } });
    const user = userEvent.setup();
    const { router } = renderPage("?q=nobody&role=admin&sort=name&order=asc");

    await screen.findByText("No users match");
    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() =>
      expect(router.state.location.search).toEqual({ sort: "name", order: "asc", limit: 25, offset: 0 }),
    );
    expect(screen.getByLabelText<HTMLInputElement>("Search users").value).toBe("");
  });

  it("says more than the page's end when the server did not count past it, and still pages on", async () => {
    answer = (url) => {
      const offset = Number(url.searchParams.get("offset"));
      return { body: { users: [ada, bob], total: offset + 11, totalIsLowerBound: true, limit: 10, offset } };
    };
    const user = userEvent.setup();
    renderPage("?q=son&limit=10");

    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("More than 10 users"));
    const pages = screen.getByRole("navigation", { name: "User pages" });
    expect(pages.textContent).toContain("1–10 of more than 10");
    await user.click(within(pages).getByRole("button", { name: "Next" }));
    await waitFor(() => expect(pages.textContent).toContain("11–20 of more than 20"));
    expect(screen.getByRole("status").textContent).toBe("More than 20 users");
  });

  it("says an old link's page is past the last user, without a range, and goes back to the first page", async () => {
    answer = (url) => {
      const offset = Number(url.searchParams.get("offset"));
      return { body: { users: offset ? [] : [ada, bob], total: 149, totalIsLowerBound: false, limit: 100, offset } };
    };
    const user = userEvent.setup();
    const { router } = renderPage("?q=zbikowski&limit=100&offset=1000");

    await screen.findByText("This page is past the last user");
    const pages = screen.getByRole("navigation", { name: "User pages" });
    expect(pages.textContent).toBe("PreviousNext");
    await user.click(screen.getByRole("button", { name: "Go to the first page" }));
    await waitFor(() => expect(pages.textContent).toContain("1–100 of 149"));
    expect(router.state.location.search).toMatchObject({ q: "zbikowski", limit: 100, offset: 0 });
  });

  it("says why the list could not load and tries again", async () => {
    answer = () => ({
      status: 403,
      body: { code: "FORBIDDEN", message: "You are not allowed to access resource: user" },
    });
    const user = userEvent.setup();
    renderPage();

    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("You are not allowed to do this. Ask an administrator if you need it.");
    answer = () => ({ body: { users: [ada], total: 1, limit: 25, offset: 0 } });
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    await screen.findByRole("link", { name: "Ada Lovelace" });
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("creates a user with an invitation and opens their page", async () => {
    authClient.admin.createUser.mockResolvedValue({ data: { user: { id: "user_new" } }, error: null });
    const user = userEvent.setup();
    const { router } = renderPage();
    await user.click(await screen.findByRole("button", { name: "Create user" }));
    const dialog = await screen.findByRole("dialog", { name: "Create a user" });

    await user.type(within(dialog).getByLabelText("Name"), "Katherine Johnson");
    await user.type(within(dialog).getByLabelText("E-mail"), "katherine@example.test");
    await user.type(within(dialog).getByLabelText("Username (optional)"), "katherine");
    expect(within(dialog).getByRole("radio", { name: /Send an invitation to set one/ })).toHaveProperty(
      "checked",
      true,
    );
    expect(within(dialog).queryByLabelText("Password")).toBeNull();
    await user.click(within(dialog).getByRole("button", { name: "Create user" }));

    await waitFor(() =>
      expect(authClient.admin.createUser).toHaveBeenCalledWith({
        name: "Katherine Johnson",
        email: "katherine@example.test",
        role: "user",
        data: { username: "katherine" },
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe("/admin/users/user_new"));
  });

  it("sets a password when asked, and puts a taken e-mail address on its field", async () => {
    authClient.admin.createUser.mockResolvedValue({
      data: null,
      error: {
        status: 400,
        code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
        message: "User already exists. Use another email.",
      },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Create user" }));
    const dialog = await screen.findByRole("dialog", { name: "Create a user" });

    await user.type(within(dialog).getByLabelText("Name"), "Ada Again");
    await user.type(within(dialog).getByLabelText("E-mail"), "ada@example.test");
    await user.click(within(dialog).getByRole("radio", { name: /Platform admin/ }));
    await user.click(within(dialog).getByRole("radio", { name: /Set a password now/ }));
    await user.click(within(dialog).getByRole("button", { name: "Create user" }));
    expect(authClient.admin.createUser).not.toHaveBeenCalled();

    await user.type(within(dialog).getByLabelText("Password"), "correct horse battery");
    await user.click(within(dialog).getByRole("button", { name: "Create user" }));
    await waitFor(() =>
      expect(authClient.admin.createUser).toHaveBeenCalledWith({
        name: "Ada Again",
        email: "ada@example.test",
        role: "admin",
        password: "correct horse battery",
      }),
    );
    const email = within(dialog).getByLabelText("E-mail");
    await waitFor(() => expect(email.getAttribute("aria-invalid")).toBe("true"));
    within(dialog).getByText("An account with this e-mail address already exists. Use another address.");
  });
});

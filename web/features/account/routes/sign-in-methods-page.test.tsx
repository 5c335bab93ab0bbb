import { cleanup, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { SignInMethodsPage } from "./sign-in-methods-page";

// Sign-in methods go through better-auth's client; the provider list comes from /api/meta (fetch).
const authClient = vi.hoisted(() => ({
  listAccounts: vi.fn(),
  linkSocial: vi.fn(),
  unlinkAccount: vi.fn(),
  requestPasswordReset: vi.fn(),
}));
vi.mock("../../../lib/auth-client", () => ({ authClient }));

const EMAIL = "ada@example.test";
const DEV = { id: "dev", name: "Dev identity provider" };
const password = {
  id: "acc_password",
  providerId: "credential",
  accountId: "user_1",
  createdAt: "2026-11-01T10:00:00.000Z",
};
const devAccount = {
  id: "acc_dev",
  providerId: "dev",
  accountId: "dev-abc",
  email: EMAIL,
  createdAt: "2026-11-02T10:00:00.000Z",
};

function renderPage(
  accounts: unknown[] | { error: { status: number; code: string; message: string } },
  username: string | null = null,
) {
  authClient.listAccounts.mockResolvedValue(
    Array.isArray(accounts) ? { data: accounts, error: null } : { data: null, ...accounts },
  );
  return renderPages({
    "/account/sign-in-methods": () => <SignInMethodsPage email={EMAIL} username={username} />,
    "/account/password": () => <p>Password page</p>,
  });
}

beforeEach(() => {
  for (const mock of Object.values(authClient)) mock.mockReset();
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            devMailbox: true,
            billingSandbox: false,
            socialProviders: [DEV],
            organizations: { whoMayCreate: "everyone", isDeletionDisabled: false, limit: null },
          }),
          { status: 200, headers: { "content-type": "application/json" } },
        ),
    ),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe("SignInMethodsPage", () => {
  it("offers the username with the password only to a person who has one", async () => {
    renderPage([password]);
    await screen.findByText(`Sign in with ${EMAIL}.`);
    cleanup();
    renderPage([password], "ada_l");
    await screen.findByText(`Sign in with ${EMAIL} or your username, ada_l.`);
  });

  it("keeps the only way in: the provider cannot be disconnected until a password is set through a mailed link", async () => {
    authClient.requestPasswordReset.mockResolvedValue({ data: { status: true }, error: null });
    const user = userEvent.setup();
    renderPage([devAccount]);

    const disconnect = await screen.findByRole("button", { name: "Disconnect Dev identity provider" });
    expect(disconnect.getAttribute("aria-disabled")).toBe("true");
    screen.getByText(/It is your only way to sign in\./);
    screen.getByText(new RegExp(`As ${EMAIL}, since`));
    await user.click(disconnect);
    expect(screen.queryByRole("dialog")).toBeNull();

    await user.click(screen.getByRole("button", { name: "E-mail me a link to set a password" }));
    await screen.findByText("Check your inbox");
    expect(authClient.requestPasswordReset).toHaveBeenCalledWith({ email: EMAIL, redirectTo: "/account/set-password" });
  });

  it("disconnects a provider after confirmation while a password remains", async () => {
    authClient.unlinkAccount.mockResolvedValue({ data: { status: true }, error: null });
    const user = userEvent.setup();
    const { notify } = renderPage([password, devAccount]);

    await screen.findByRole("link", { name: "Change password" });
    await user.click(screen.getByRole("button", { name: "Disconnect Dev identity provider" }));
    const dialog = await screen.findByRole("dialog");
    const noLonger = `You will no longer be able to sign in with Dev identity provider as ${EMAIL}.`;
    within(dialog).getByText(`${noLonger} You can connect it again later.`);
    authClient.listAccounts.mockResolvedValue({ data: [password], error: null });
    await user.click(within(dialog).getByRole("button", { name: "Disconnect" }));

    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("Dev identity provider disconnected"));
    expect(authClient.unlinkAccount).toHaveBeenCalledWith({ accountId: "acc_dev" });
    await screen.findByRole("button", { name: "Connect Dev identity provider" });
  });

  it("connects a provider by going to it, with the way back to this page", async () => {
    // better-auth's client then navigates to the provider; here it never answers, so the button stays busy.
    authClient.linkSocial.mockReturnValue(new Promise(() => undefined));
    const user = userEvent.setup();
    renderPage([password]);

    await user.click(await screen.findByRole("button", { name: "Connect Dev identity provider" }));
    expect(authClient.linkSocial).toHaveBeenCalledWith({
      provider: "dev",
      callbackURL: "/account/sign-in-methods?connected=dev",
    });
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Connect Dev identity provider" }).getAttribute("aria-disabled")).toBe(
        "true",
      ),
    );
  });

  it("says why the list cannot load instead of showing nothing", async () => {
    renderPage({ error: { status: 401, code: "UNAUTHORIZED", message: "Unauthorized" } });
    expect((await screen.findByRole("alert")).textContent).toContain(
      "Your session has ended. Sign in again to continue.",
    );
    expect(screen.queryByRole("button", { name: /Connect|Disconnect/ })).toBeNull();
  });
});

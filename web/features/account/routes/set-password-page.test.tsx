import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { SetPasswordPage } from "./set-password-page";

// The listAccounts the sign-in methods query reads after the password is set.
vi.mock("../../../lib/auth-client", () => ({ authClient: { listAccounts: vi.fn(async () => ({ data: [] })) } }));

let answer: Response;
const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => answer);

function renderPage(search: { token?: string; error?: string }) {
  return renderPages({
    "/account/set-password": () => <SetPasswordPage token={search.token} error={search.error} />,
    "/account/sign-in-methods": () => <p>Sign-in methods</p>,
  });
}

beforeEach(() => {
  answer = Response.json({ status: true });
  fetchMock.mockClear();
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

async function choose(password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Password"), password);
  await user.type(screen.getByLabelText("Confirm password"), password);
  await user.click(screen.getByRole("button", { name: "Set password" }));
}

describe("SetPasswordPage", () => {
  it("says Set a password, not reset, and that the session stays signed in", async () => {
    renderPage({ token: "tok_1" });
    await screen.findByRole("heading", { name: "Set a password" });
    screen.getByText(/You stay signed in here, and your provider keeps working\./);
    expect(document.body.textContent).not.toMatch(/reset|signed out/i);
  });

  it("sets the password with the link's token, then goes back to the sign-in methods, signed in", async () => {
    const { notify, router } = renderPage({ token: "tok_1" });
    await choose("a-first-password-1");
    await waitFor(() => expect(router.state.location.pathname).toBe("/account/sign-in-methods"));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe("/api/account/first-password");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ token: "tok_1", newPassword: "a-first-password-1" });
    expect(notify.success).toHaveBeenCalledWith("Your password is set.");
  });

  it("shows the server's refusal of a used link above the form", async () => {
    answer = Response.json({ code: "INVALID_TOKEN", message: "Invalid token" }, { status: 400 });
    renderPage({ token: "tok_used" });
    await choose("a-first-password-1");
    expect((await screen.findByRole("alert")).textContent).toBe(
      "This link is invalid or has expired. Ask for a new one.",
    );
  });

  it.each([{ error: "INVALID_TOKEN" }, {}])("says a link without a token (%o) does not work", async (search) => {
    renderPage(search);
    await screen.findByRole("heading", { name: "This link does not work" });
    expect(screen.getByRole("alert").textContent).toBe("The link is invalid or has expired. Ask for a new one.");
    expect(screen.getByRole("link", { name: "Ask for a new one" }).getAttribute("href")).toBe(
      "/account/sign-in-methods",
    );
  });
});

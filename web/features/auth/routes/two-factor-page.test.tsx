import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { TwoFactorPage } from "./two-factor-page";

const authClient = vi.hoisted(() => ({ twoFactor: { verifyTotp: vi.fn(), verifyBackupCode: vi.fn() } }));
vi.mock("../../../lib/auth-client", () => ({ authClient }));

const refusal = (status: number, code: string) => ({ data: null, error: { status, code, message: "x" } });

function renderPage() {
  return renderPages({
    "/sign-in/two-factor": () => <TwoFactorPage redirect="/account" />,
    "/account": () => <p>Account page</p>,
    "/sign-in": () => <p>Sign-in page</p>,
  });
}

beforeEach(() => {
  for (const mock of Object.values(authClient.twoFactor)) mock.mockReset();
  // A code that works reads the new session (a plain fetch of get-session).
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response("null", { status: 200, headers: { "content-type": "application/json" } })),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe("TwoFactorPage", () => {
  it("asks for the app's code (one-time-code), says a wrong one is wrong, and goes on with the right one", async () => {
    authClient.twoFactor.verifyTotp
      .mockResolvedValueOnce(refusal(400, "INVALID_CODE"))
      .mockResolvedValueOnce({ data: { token: "t" }, error: null });
    const user = userEvent.setup();
    renderPage();
    const code = await screen.findByLabelText("Code");
    expect(code.getAttribute("autocomplete")).toBe("one-time-code");
    expect(document.activeElement).toBe(code);

    await user.type(code, "111111{Enter}");
    expect(
      await screen.findByText("That code is not right. Enter the code your authenticator app shows now."),
    ).toBeTruthy();
    await user.clear(code);
    await user.type(code, "222222{Enter}");
    expect(await screen.findByText("Account page")).toBeTruthy();
    expect(authClient.twoFactor.verifyTotp).toHaveBeenLastCalledWith({ code: "222222" });
  });

  it("takes a backup code instead", async () => {
    authClient.twoFactor.verifyBackupCode.mockResolvedValue(refusal(400, "INVALID_BACKUP_CODE"));
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Use a backup code" }));
    await user.type(screen.getByLabelText("Backup code"), "abcde-12345{Enter}");
    expect(await screen.findByText("That backup code is not right, or it was already used.")).toBeTruthy();
    expect(authClient.twoFactor.verifyBackupCode).toHaveBeenCalledWith({ code: "abcde-12345" });
    expect(screen.getByRole("button", { name: "Use the authenticator app" })).toBeTruthy();
  });

  it("says when the sign-in has ended and leads back to the password", async () => {
    authClient.twoFactor.verifyTotp.mockResolvedValue(refusal(400, "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE"));
    const user = userEvent.setup();
    renderPage();
    await user.type(await screen.findByLabelText("Code"), "333333{Enter}");
    expect(await screen.findByText("Too many wrong codes. Sign in again with your password.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByLabelText("Code")).toBeNull());
    await user.click(screen.getByRole("link", { name: "Sign in again" }));
    expect(await screen.findByText("Sign-in page")).toBeTruthy();
  });

  it("says the account is locked after too many wrong codes (429), and when to sign in again", async () => {
    authClient.twoFactor.verifyTotp.mockResolvedValue({
      data: null,
      error: { status: 429, code: "ACCOUNT_TEMPORARILY_LOCKED", message: "x", retryAfter: 840 },
    });
    const user = userEvent.setup();
    renderPage();
    await user.type(await screen.findByLabelText("Code"), "444444{Enter}");
    expect(
      await screen.findByText(
        "Too many wrong codes were entered for this account, so it is locked for now. Sign in again in 14 minutes.",
      ),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByLabelText("Code")).toBeNull());
    expect(screen.getByRole("link", { name: "Sign in again" })).toBeTruthy();
  });

  it("without the lock's end (no Retry-After), gives the lock's full length", async () => {
    authClient.twoFactor.verifyBackupCode.mockResolvedValueOnce({
      data: null,
      error: { status: 429, code: "ACCOUNT_TEMPORARILY_LOCKED", message: "x" },
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole("button", { name: "Use a backup code" }));
    await user.type(screen.getByLabelText("Backup code"), "abcde-12345{Enter}");
    expect(
      await screen.findByText(
        "Too many wrong codes were entered for this account, so it is locked for now. Wait 15 minutes, then sign in " +
          "again.",
      ),
    ).toBeTruthy();
  });

  it("words a rate limit of the code check with its wait, and keeps the form", async () => {
    authClient.twoFactor.verifyTotp.mockResolvedValue({
      data: null,
      error: { status: 429, code: "TOO_MANY_REQUESTS", message: "x", retryAfter: 42 },
    });
    const user = userEvent.setup();
    renderPage();
    await user.type(await screen.findByLabelText("Code"), "555555{Enter}");
    expect(await screen.findByText("Too many attempts. Try again in 42 seconds.")).toBeTruthy();
    expect(screen.getByLabelText("Code")).toBeTruthy();
  });
});

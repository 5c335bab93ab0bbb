import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FreshAuthenticationProvider } from "../../../lib/fresh-authentication";
import { createQueryClient } from "../../../lib/query-client";
import { ChangeEmailForm } from "./change-email-form";

const authClient = vi.hoisted(() => ({ changeEmail: vi.fn() }));
vi.mock("../../../lib/auth-client", () => ({ authClient }));

const NEW_EMAIL = "ada.new@example.test";
const passkeySignIn = vi.hoisted(() => ({ promptedCredential: vi.fn() }));
vi.mock("../../../lib/passkey-prompt", () => passkeySignIn);

const notFresh = (details: { password: boolean; totp: boolean; passkey?: boolean; providers: string[] }) => ({
  data: null,
  error: {
    status: 403,
    code: "FRESH_AUTHENTICATION_REQUIRED",
    message: "This action needs a sign-in or a re-check from the last 10 minutes: confirm it is you, then try again",
    details,
  },
});

/** The answers of POST /api/account/reauthenticate, in order. */
let answers: Response[] = [];
const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => answers.shift() ?? Response.error());

function renderForm() {
  render(
    <QueryClientProvider client={createQueryClient({ success: vi.fn(), error: vi.fn() })}>
      <FreshAuthenticationProvider>
        <ChangeEmailForm email="ada@example.test" />
      </FreshAuthenticationProvider>
    </QueryClientProvider>,
  );
}

async function askForChange() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText("New e-mail address"), `${NEW_EMAIL}{Enter}`);
  return user;
}

beforeEach(() => {
  authClient.changeEmail.mockReset();
  fetchMock.mockClear();
  answers = [];
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe("the re-check dialog, on the e-mail change", () => {
  it("opens on FRESH_AUTHENTICATION_REQUIRED, refuses a wrong password, and retries the action once after it", async () => {
    authClient.changeEmail
      .mockResolvedValueOnce(notFresh({ password: true, totp: false, providers: [] }))
      .mockResolvedValueOnce({ data: { status: true }, error: null });
    answers = [
      Response.json({ code: "INVALID_PASSWORD", message: "Invalid password" }, { status: 400 }),
      Response.json({ status: true }),
    ];
    renderForm();
    const user = await askForChange();

    const dialog = await screen.findByRole("dialog", { name: "Confirm it is you" });
    const password = await screen.findByLabelText("Password");
    expect(document.activeElement).toBe(password);
    await user.keyboard("wrong{Enter}");
    expect(await screen.findByText("That password is not right.")).toBeTruthy();
    expect(authClient.changeEmail).toHaveBeenCalledTimes(1);

    await user.clear(password);
    await user.keyboard("right-password{Enter}");
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(String(url)).toBe("/api/account/reauthenticate");
    expect(JSON.parse(String(init?.body))).toEqual({ password: "right-password" });
    expect(authClient.changeEmail).toHaveBeenCalledTimes(2);
    expect((await screen.findByRole("status")).textContent).toContain(`We sent a link to ${NEW_EMAIL}.`);
  });

  it("cancelled with Escape, leaves the refusal to the screen and does not retry", async () => {
    authClient.changeEmail.mockResolvedValue(notFresh({ password: true, totp: false, providers: [] }));
    renderForm();
    const user = await askForChange();

    await screen.findByRole("dialog", { name: "Confirm it is you" });
    await user.keyboard("{Escape}");
    expect(
      await screen.findByText("For your security, confirm it is you before doing this, then try again."),
    ).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(authClient.changeEmail).toHaveBeenCalledTimes(1);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("offers an authenticator code when the account has one, and sends it", async () => {
    authClient.changeEmail
      .mockResolvedValueOnce(notFresh({ password: true, totp: true, providers: [] }))
      .mockResolvedValueOnce({ data: { status: true }, error: null });
    answers = [Response.json({ status: true })];
    renderForm();
    const user = await askForChange();

    await user.click(await screen.findByRole("button", { name: "Use a code from your authenticator app" }));
    // The code's own field, focused: keyboard users land on it.
    expect(document.activeElement).toBe(screen.getByLabelText("Code from your authenticator app"));
    expect(screen.queryByRole("button", { name: "Use a passkey" })).toBeNull();
    await user.keyboard("123456{Enter}");

    await waitFor(() => expect(authClient.changeEmail).toHaveBeenCalledTimes(2));
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({ code: "123456" });
  });

  it("offers a passkey when the account has one, and sends the browser's answer", async () => {
    const assertion = { id: "credential-1", rawId: "credential-1", type: "public-key", response: { signature: "s" } };
    passkeySignIn.promptedCredential.mockReset().mockResolvedValueOnce(null).mockResolvedValueOnce(assertion);
    authClient.changeEmail
      .mockResolvedValueOnce(notFresh({ password: true, totp: false, passkey: true, providers: [] }))
      .mockResolvedValueOnce({ data: { status: true }, error: null });
    answers = [Response.json({ status: true })];
    renderForm();
    const user = await askForChange();

    const dialog = await screen.findByRole("dialog", { name: "Confirm it is you" });
    // The prompt closed: nothing is sent, the dialog stays.
    await user.click(await screen.findByRole("button", { name: "Use a passkey" }));
    await waitFor(() => expect(passkeySignIn.promptedCredential).toHaveBeenCalledTimes(1));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(dialog.isConnected).toBe(true);

    await user.click(screen.getByRole("button", { name: "Use a passkey" }));
    await waitFor(() => expect(authClient.changeEmail).toHaveBeenCalledTimes(2));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toBe("/api/account/reauthenticate");
    expect(JSON.parse(String(init?.body))).toEqual({ passkey: assertion });
  });

  it("for an account with only a passkey, offers the passkey and Cancel", async () => {
    passkeySignIn.promptedCredential.mockReset();
    authClient.changeEmail.mockResolvedValue(
      notFresh({ password: false, totp: false, passkey: true, providers: ["github"] }),
    );
    renderForm();
    await askForChange();
    const dialog = await screen.findByRole("dialog", { name: "Confirm it is you" });
    expect(screen.getByRole("button", { name: "Use a passkey" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cancel" })).toBeTruthy();
    expect(screen.queryByLabelText("Password")).toBeNull();
    expect(dialog.textContent).toContain("Confirm it is you to go on.");
  });
});

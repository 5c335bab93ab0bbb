import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderPages } from "../../../test/render-pages";
import { SecurityPage } from "./security-page";

// The second factor goes through better-auth's client.
const authClient = vi.hoisted(() => ({
  twoFactor: {
    enable: vi.fn(),
    verifyTotp: vi.fn(),
    generateBackupCodes: vi.fn(),
    disable: vi.fn(),
  },
}));
vi.mock("../../../lib/auth-client", () => ({ authClient }));

const TOTP_URI = "otpauth://totp/Atrium:ada%40example.test?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Atrium";
const CODES = Array.from({ length: 10 }, (_, index) => `code${index}-abcde`);
const WRONG_PASSWORD = { data: null, error: { status: 400, code: "INVALID_PASSWORD", message: "Invalid password" } };

function renderPage(twoFactorEnabled: boolean) {
  return renderPages({ "/account/security": () => <SecurityPage twoFactorEnabled={twoFactorEnabled} /> });
}

beforeEach(() => {
  for (const mock of Object.values(authClient.twoFactor)) mock.mockReset();
  // Turning the factor on or off reads the session again (a plain fetch of get-session).
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response("null", { status: 200, headers: { "content-type": "application/json" } })),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe("SecurityPage, second factor off", () => {
  it("says it is off and refuses a wrong password on its field", async () => {
    authClient.twoFactor.enable.mockResolvedValue(WRONG_PASSWORD);
    const user = userEvent.setup();
    renderPage(false);
    expect(await screen.findByText("Off")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Set up" }));
    expect(await screen.findByText("Enter your password")).toBeTruthy();
    expect(authClient.twoFactor.enable).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText("Password"), "wrong-password");
    await user.keyboard("{Enter}");
    expect(await screen.findByText("That password is not right.")).toBeTruthy();
    expect(screen.getByLabelText("Password").getAttribute("aria-invalid")).toBe("true");
  });

  it("enrols: QR code and key, a wrong code, then the right one shows the backup codes once", async () => {
    authClient.twoFactor.enable.mockResolvedValue({ data: { totpURI: TOTP_URI, backupCodes: CODES }, error: null });
    authClient.twoFactor.verifyTotp
      .mockResolvedValueOnce({ data: null, error: { status: 400, code: "INVALID_CODE", message: "x" } })
      .mockResolvedValueOnce({ data: { token: "t" }, error: null });
    const user = userEvent.setup();
    renderPage(false);

    await user.type(await screen.findByLabelText("Password"), "the-password");
    await user.click(screen.getByRole("button", { name: "Set up" }));
    expect(authClient.twoFactor.enable).toHaveBeenCalledWith({ password: "the-password" });

    const title = await screen.findByRole("heading", { name: "Set up your authenticator app" });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(screen.getByRole("img", { name: "QR code for your authenticator app" })).toBeTruthy();
    expect(screen.getByLabelText("Setup key").textContent).toBe("JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP");
    expect(screen.getByLabelText("Code").getAttribute("autocomplete")).toBe("one-time-code");

    await user.type(screen.getByLabelText("Code"), "12345");
    await user.click(screen.getByRole("button", { name: "Turn on" }));
    expect(await screen.findByText("Enter the 6 digits your authenticator app shows")).toBeTruthy();

    await user.clear(screen.getByLabelText("Code"));
    await user.type(screen.getByLabelText("Code"), "123 456");
    await user.click(screen.getByRole("button", { name: "Turn on" }));
    expect(authClient.twoFactor.verifyTotp).toHaveBeenLastCalledWith({ code: "123456" });
    expect(
      await screen.findByText("That code is not right. Enter the code your authenticator app shows now."),
    ).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Turn on" }));
    const codes = await screen.findByRole("list", { name: "Backup codes" });
    expect(
      within(codes)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(screen.getByRole("button", { name: "Copy" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Download" })).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "I saved them" }));
    expect(screen.queryByRole("list", { name: "Backup codes" })).toBeNull();
  });

  it("cancelling the enrolment goes back to the start", async () => {
    authClient.twoFactor.enable.mockResolvedValue({ data: { totpURI: TOTP_URI, backupCodes: CODES }, error: null });
    const user = userEvent.setup();
    renderPage(false);
    await user.type(await screen.findByLabelText("Password"), "the-password");
    await user.click(screen.getByRole("button", { name: "Set up" }));
    await user.click(await screen.findByRole("button", { name: "Cancel" }));
    expect(await screen.findByRole("button", { name: "Set up" })).toBeTruthy();
  });
});

describe("SecurityPage, second factor on", () => {
  it("makes new backup codes with the password and shows them", async () => {
    const fresh = CODES.map((code) => `new-${code}`);
    authClient.twoFactor.generateBackupCodes
      .mockResolvedValueOnce(WRONG_PASSWORD)
      .mockResolvedValueOnce({ data: { backupCodes: fresh }, error: null });
    const user = userEvent.setup();
    renderPage(true);
    expect(await screen.findByText("On")).toBeTruthy();

    const [regeneratePassword] = screen.getAllByLabelText("Password");
    await user.type(regeneratePassword!, "the-password");
    await user.click(screen.getByRole("button", { name: "Make new backup codes" }));
    expect(await screen.findByText("That password is not right.")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Make new backup codes" }));
    const codes = await screen.findByRole("list", { name: "Backup codes" });
    expect(
      within(codes)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(fresh);
  });

  it("turns it off with the password", async () => {
    authClient.twoFactor.disable.mockResolvedValue({ data: { status: true }, error: null });
    const user = userEvent.setup();
    const { notify } = renderPage(true);
    const turnOff = await screen.findByRole("button", { name: "Turn off" });
    await user.click(turnOff);
    expect(await screen.findAllByText("Enter your password")).toHaveLength(1);

    const passwords = screen.getAllByLabelText("Password");
    await user.type(passwords[1]!, "the-password");
    await user.click(turnOff);
    await waitFor(() => expect(authClient.twoFactor.disable).toHaveBeenCalledWith({ password: "the-password" }));
    await waitFor(() => expect(notify.success).toHaveBeenCalledWith("Two-factor authentication is off"));
  });
});

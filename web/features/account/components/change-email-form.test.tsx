import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../../../lib/query-client";
import { ChangeEmailForm } from "./change-email-form";

const authClient = vi.hoisted(() => ({ changeEmail: vi.fn() }));
vi.mock("../../../lib/auth-client", () => ({ authClient }));

const EMAIL = "ada@example.test";
const NEW_EMAIL = "ada.new@example.test";

function renderForm() {
  const notify = { success: vi.fn(), error: vi.fn() };
  render(
    <QueryClientProvider client={createQueryClient(notify)}>
      <ChangeEmailForm email={EMAIL} />
    </QueryClientProvider>,
  );
  return { notify };
}

const field = () => screen.getByLabelText("New e-mail address");

beforeEach(() => authClient.changeEmail.mockReset());

describe("ChangeEmailForm", () => {
  it("sends the new address from the keyboard, then says where the link went and that nothing changed", async () => {
    authClient.changeEmail.mockResolvedValue({ data: { status: true }, error: null });
    const user = userEvent.setup();
    renderForm();

    await user.tab();
    expect(document.activeElement).toBe(field());
    await user.keyboard(`${NEW_EMAIL}{Enter}`);

    const pending = await screen.findByRole("status");
    expect(pending.textContent).toContain(`We sent a link to ${NEW_EMAIL}.`);
    expect(pending.textContent).toContain(`Your address changes when you open it; until then it stays ${EMAIL}.`);
    expect(authClient.changeEmail).toHaveBeenCalledWith({ newEmail: NEW_EMAIL, callbackURL: "/account" });
    expect((field() as HTMLInputElement).value).toBe("");
  });

  it("says inline that the current address is already the account's, without asking the server", async () => {
    const user = userEvent.setup();
    renderForm();

    await user.type(field(), "ADA@example.test");
    await user.click(screen.getByRole("button", { name: "Send confirmation link" }));

    expect(await screen.findByText("That is already your e-mail address. Enter the new one.")).toBeTruthy();
    expect(field().getAttribute("aria-invalid")).toBe("true");
    expect(authClient.changeEmail).not.toHaveBeenCalled();
  });

  it("checks the address with the sign-up rule before sending", async () => {
    const user = userEvent.setup();
    renderForm();

    await user.type(field(), "not-an-address");
    await user.click(screen.getByRole("button", { name: "Send confirmation link" }));

    expect(await screen.findByText("Enter a valid e-mail address")).toBeTruthy();
    expect(authClient.changeEmail).not.toHaveBeenCalled();
  });

  it("puts the server's refusals inline: the same address on the field, too many requests above the form", async () => {
    authClient.changeEmail.mockResolvedValueOnce({
      data: null,
      error: {
        status: 400,
        code: "EMAIL_UNCHANGED",
        message: "The new e-mail address is the one the account already has",
      },
    });
    const user = userEvent.setup();
    renderForm();

    await user.type(field(), NEW_EMAIL);
    await user.click(screen.getByRole("button", { name: "Send confirmation link" }));
    expect(await screen.findByText("That is already your e-mail address. Enter the new one.")).toBeTruthy();
    expect(field().getAttribute("aria-invalid")).toBe("true");

    authClient.changeEmail.mockResolvedValueOnce({
      data: null,
      error: { status: 429, code: "TOO_MANY_REQUESTS", message: "Too many requests. Please try again later." },
    });
    await user.click(screen.getByRole("button", { name: "Send confirmation link" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/\S/);
    expect(screen.queryByRole("status")).toBeNull();
  });
});

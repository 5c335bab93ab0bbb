import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { TextField } from "../components/ui/text-field";
import { ApiError } from "./api-error";
import { serverErrorTarget, useZodForm } from "./form";

describe("serverErrorTarget", () => {
  const map = {
    INVALID_PASSWORD: { field: "password", message: "That password is not right." },
    USERNAME_IS_ALREADY_TAKEN: "username",
    "PASSWORD_*": "password",
    "422": "username",
  } as const;

  it("puts an error on the field of its code, with the rule's message when it has one", () => {
    expect(serverErrorTarget(new ApiError("Invalid password", 400, "INVALID_PASSWORD"), map)).toEqual({
      field: "password",
      message: "That password is not right.",
    });
    expect(serverErrorTarget(new ApiError("Taken", 422, "USERNAME_IS_ALREADY_TAKEN"), map)).toEqual({
      field: "username",
      message: "Taken",
    });
  });

  it("matches a code prefix, then the status", () => {
    expect(serverErrorTarget(new ApiError("Too short", 400, "PASSWORD_TOO_SHORT"), map)).toEqual({
      field: "password",
      message: "Too short",
    });
    expect(serverErrorTarget(new ApiError("Bad username", 422, "SOMETHING_ELSE"), map)).toEqual({
      field: "username",
      message: "Bad username",
    });
  });

  it("keeps everything else above the form, with a message a person can act on", () => {
    expect(serverErrorTarget(new ApiError("Nope", 403, "FORBIDDEN"), map)).toEqual({ message: "Nope" });
    expect(serverErrorTarget(new TypeError("fetch failed"), map)).toEqual({
      message: "Could not reach the server. Check your connection and try again.",
    });
    expect(serverErrorTarget(new Error("boom"))).toEqual({ message: "Something went wrong. Please try again." });
  });

  it("sends every ApiError to the catch-all field when there is one", () => {
    expect(serverErrorTarget(new ApiError("Exists", 409, "TEAM_EXISTS"), { "*": "name" })).toEqual({
      field: "name",
      message: "Exists",
    });
  });
});

const orderSchema = z.object({
  customer: z.object({
    name: z.string().trim().min(1, "Enter a name"),
    email: z.email("Enter a valid e-mail address"),
  }),
  slug: z.string().min(1, "Enter a slug"),
  items: z.array(
    z.object({
      sku: z.string().min(3, "Use at least 3 characters"),
      quantity: z.coerce.number<string>().int().min(1, "At least 1"),
    }),
  ),
  gift: z.boolean(),
});

type OrderFormHandle = { reset(values?: { customer: { name: string; email: string } }): void; isDirty(): boolean };

function OrderForm({
  onValid,
  handle,
}: {
  onValid: (data: z.output<typeof orderSchema>) => unknown;
  handle?: OrderFormHandle[];
}) {
  const form = useZodForm(orderSchema, {
    defaultValues: { customer: { name: "", email: "" }, slug: "", items: [{ sku: "", quantity: "1" }], gift: false },
    serverErrors: { CUSTOMER_EXISTS: "customer.email", OUT_OF_STOCK: "items.0.sku" },
  });
  handle?.push({ reset: (values) => form.reset(values), isDirty: () => form.formState.isDirty });
  const nameField = form.field("customer.name");
  return (
    <form onSubmit={form.submit(onValid)} noValidate>
      {form.formError ? <p role="alert">{form.formError}</p> : null}
      <TextField
        label="Customer name"
        {...nameField}
        onChange={(event) => {
          // As the organization form does: the slug follows the name.
          form.setValue("slug", event.target.value.toLowerCase());
          nameField.onChange(event);
        }}
      />
      <TextField label="Customer e-mail" {...form.field("customer.email")} />
      <TextField label="Slug" {...form.field("slug")} />
      <TextField label="SKU" {...form.field("items.0.sku")} />
      <TextField label="Quantity" {...form.field("items.0.quantity")} />
      <label>
        <input type="checkbox" {...form.register("gift")} /> Gift
      </label>
      <p data-testid="watched">{form.watch("customer.name")}</p>
      <button type="submit" disabled={form.formState.isSubmitting}>
        Place order
      </button>
      <button type="button">Elsewhere</button>
    </form>
  );
}

describe("useZodForm", () => {
  it("validates nested and array fields with the schema and submits the parsed values", async () => {
    const user = userEvent.setup();
    const onValid = vi.fn();
    render(<OrderForm onValid={onValid} />);

    await user.click(screen.getByRole("button", { name: "Place order" }));
    screen.getByText("Enter a name");
    screen.getByText("Enter a valid e-mail address");
    expect(screen.getByLabelText("SKU").getAttribute("aria-invalid")).toBe("true");
    screen.getByText("Use at least 3 characters");
    expect(onValid).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText("Customer name"), "Ada");
    expect(screen.getByTestId("watched").textContent).toBe("Ada");
    await user.type(screen.getByLabelText("Customer e-mail"), "ada@example.test");
    await user.type(screen.getByLabelText("SKU"), "ABC-1");
    await user.clear(screen.getByLabelText("Quantity"));
    await user.type(screen.getByLabelText("Quantity"), "3");
    await user.click(screen.getByLabelText("Gift"));
    await user.click(screen.getByRole("button", { name: "Place order" }));

    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    expect(onValid.mock.calls[0]![0]).toEqual({
      customer: { name: "Ada", email: "ada@example.test" },
      slug: "ada",
      items: [{ sku: "ABC-1", quantity: 3 }],
      gift: true,
    });
  });

  it("focuses the first invalid field on submit, in page order", async () => {
    const user = userEvent.setup();
    render(<OrderForm onValid={vi.fn()} />);
    await user.type(screen.getByLabelText("Customer name"), "Ada");
    await user.click(screen.getByRole("button", { name: "Place order" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText("Customer e-mail")));
  });

  it("shows an error once a typed-in field is left, never for a field only tabbed past, and clears it while typing", async () => {
    const user = userEvent.setup();
    render(<OrderForm onValid={vi.fn()} />);
    const name = screen.getByLabelText("Customer name");
    const email = screen.getByLabelText("Customer e-mail");

    await user.click(name);
    await user.tab();
    expect(screen.queryByText("Enter a name")).toBeNull();

    await user.type(email, "not-an-address");
    expect(screen.queryByText("Enter a valid e-mail address")).toBeNull();
    await user.tab();
    screen.getByText("Enter a valid e-mail address");
    expect(email.getAttribute("aria-invalid")).toBe("true");

    await user.clear(email);
    await user.type(email, "fixed@example.test");
    expect(screen.queryByText("Enter a valid e-mail address")).toBeNull();
    expect(email.getAttribute("aria-invalid")).toBeNull();
  });

  it("after a submit, updates an error while it is still wrong and clears it the moment the value is valid", async () => {
    const user = userEvent.setup();
    render(<OrderForm onValid={vi.fn()} />);
    await user.click(screen.getByRole("button", { name: "Place order" }));
    const sku = screen.getByLabelText("SKU");
    screen.getByText("Use at least 3 characters");

    await user.type(sku, "AB");
    screen.getByText("Use at least 3 characters");
    await user.type(sku, "C");
    expect(screen.queryByText("Use at least 3 characters")).toBeNull();

    // A field another field's change fixes (the slug follows the name) clears too, without being touched.
    screen.getByText("Enter a slug");
    await user.type(screen.getByLabelText("Customer name"), "A");
    expect(screen.queryByText("Enter a slug")).toBeNull();
    expect((screen.getByLabelText("Slug") as HTMLInputElement).value).toBe("a");
  });

  it("changes no error when a field is left: not for an untouched field, not for a valid one", async () => {
    const user = userEvent.setup();
    render(<OrderForm onValid={vi.fn()} />);
    await user.click(screen.getByRole("button", { name: "Place order" }));
    const shown = () => screen.queryAllByText(/Enter a|Use at least/).map((node) => node.textContent);
    const before = shown();
    expect(before).toEqual([
      "Enter a name",
      "Enter a valid e-mail address",
      "Enter a slug",
      "Use at least 3 characters",
    ]);

    await user.click(screen.getByLabelText("SKU"));
    await user.tab();
    await user.click(screen.getByRole("button", { name: "Elsewhere" }));
    expect(shown()).toEqual(before);

    await user.type(screen.getByLabelText("Customer e-mail"), "ada@example.test");
    const afterTyping = shown();
    expect(afterTyping).toEqual(["Enter a name", "Enter a slug", "Use at least 3 characters"]);
    await user.click(screen.getByRole("button", { name: "Elsewhere" }));
    expect(shown()).toEqual(afterTyping);
  });

  it("shows a typed-in field's error only after the click that left it, so the click lands where it was aimed", async () => {
    const user = userEvent.setup();
    const elsewhere = vi.fn();
    render(<OrderForm onValid={vi.fn()} />);
    screen.getByRole("button", { name: "Elsewhere" }).addEventListener("click", elsewhere);
    await user.type(screen.getByLabelText("Customer e-mail"), "not-an-address");

    await user.pointer({ keys: "[MouseLeft>]", target: screen.getByRole("button", { name: "Elsewhere" }) });
    expect(document.activeElement).not.toBe(screen.getByLabelText("Customer e-mail"));
    expect(screen.queryByText("Enter a valid e-mail address")).toBeNull();

    await user.pointer({ keys: "[/MouseLeft]", target: screen.getByRole("button", { name: "Elsewhere" }) });
    expect(elsewhere).toHaveBeenCalledTimes(1);
    await screen.findByText("Enter a valid e-mail address");
  });

  it("puts what the submit handler throws on its field (focused) or above the form", async () => {
    const user = userEvent.setup();
    const onValid = vi
      .fn()
      .mockRejectedValueOnce(new ApiError("That customer exists already", 409, "CUSTOMER_EXISTS"))
      .mockRejectedValueOnce(new ApiError("Try later", 503));
    render(<OrderForm onValid={onValid} />);
    await user.type(screen.getByLabelText("Customer name"), "Ada");
    await user.type(screen.getByLabelText("Customer e-mail"), "ada@example.test");
    await user.type(screen.getByLabelText("SKU"), "ABC-1");

    await user.click(screen.getByRole("button", { name: "Place order" }));
    await screen.findByText("That customer exists already");
    expect(screen.getByLabelText("Customer e-mail").getAttribute("aria-invalid")).toBe("true");
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText("Customer e-mail")));
    expect(screen.queryByRole("alert")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Place order" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Try later");
    expect(screen.queryByText("That customer exists already")).toBeNull();
  });

  it("resets to new values, which become the defaults, and writes them into the controls", async () => {
    const user = userEvent.setup();
    const handle: OrderFormHandle[] = [];
    render(<OrderForm onValid={vi.fn()} handle={handle} />);
    await user.type(screen.getByLabelText("Customer name"), "Ada");
    expect(handle.at(-1)!.isDirty()).toBe(true);
    act(() => handle.at(-1)!.reset({ customer: { name: "Grace", email: "" } }));
    expect((screen.getByLabelText("Customer name") as HTMLInputElement).value).toBe("Grace");
    expect(handle.at(-1)!.isDirty()).toBe(false);
  });
});

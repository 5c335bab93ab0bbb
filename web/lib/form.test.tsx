import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useFieldArray } from "react-hook-form";
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
    expect(serverErrorTarget(new ApiError("Taken", 422, "USERNAME_IS_ALREADY_TAKEN"), map)).toEqual({ field: "username", message: "Taken" });
  });

  it("matches a code prefix, then the status", () => {
    expect(serverErrorTarget(new ApiError("Too short", 400, "PASSWORD_TOO_SHORT"), map)).toEqual({ field: "password", message: "Too short" });
    expect(serverErrorTarget(new ApiError("Bad username", 422, "SOMETHING_ELSE"), map)).toEqual({ field: "username", message: "Bad username" });
  });

  it("keeps everything else above the form, with a message a person can act on", () => {
    expect(serverErrorTarget(new ApiError("Nope", 403, "FORBIDDEN"), map)).toEqual({ message: "Nope" });
    expect(serverErrorTarget(new TypeError("fetch failed"), map)).toEqual({ message: "Could not reach the server. Check your connection and try again." });
    expect(serverErrorTarget(new Error("boom"))).toEqual({ message: "Something went wrong. Please try again." });
  });

  it("sends every ApiError to the catch-all field when there is one", () => {
    expect(serverErrorTarget(new ApiError("Exists", 409, "TEAM_EXISTS"), { "*": "name" })).toEqual({ field: "name", message: "Exists" });
  });
});

const orderSchema = z.object({
  customer: z.object({
    name: z.string().trim().min(1, "Enter a name"),
    email: z.email("Enter a valid e-mail address"),
  }),
  items: z
    .array(z.object({ sku: z.string().min(3, "Use at least 3 characters"), quantity: z.coerce.number<string>().int().min(1, "At least 1") }))
    .min(1, "Add an item"),
});

function OrderForm({ onValid }: { onValid: (data: z.output<typeof orderSchema>) => unknown }) {
  const form = useZodForm(orderSchema, {
    defaultValues: { customer: { name: "", email: "" }, items: [{ sku: "", quantity: "1" }] },
    serverErrors: { CUSTOMER_EXISTS: "customer.email", OUT_OF_STOCK: "items.0.sku" },
  });
  const items = useFieldArray({ control: form.control, name: "items" });
  return (
    <form onSubmit={form.submit(onValid)} noValidate>
      {form.formError ? <p role="alert">{form.formError}</p> : null}
      <TextField label="Customer name" {...form.field("customer.name")} />
      <TextField label="Customer e-mail" {...form.field("customer.email")} />
      {items.fields.map((item, index) => (
        <div key={item.id}>
          <TextField label={`SKU ${index + 1}`} {...form.field(`items.${index}.sku`)} />
          <TextField label={`Quantity ${index + 1}`} {...form.field(`items.${index}.quantity`)} />
          <button type="button" onClick={() => items.remove(index)}>{`Remove item ${index + 1}`}</button>
        </div>
      ))}
      {form.formState.errors.items?.root?.message || form.formState.errors.items?.message ? (
        <p>{form.formState.errors.items?.root?.message ?? form.formState.errors.items?.message}</p>
      ) : null}
      <button type="button" onClick={() => items.append({ sku: "", quantity: "1" })}>
        Add item
      </button>
      <button type="submit" disabled={form.formState.isSubmitting}>
        Place order
      </button>
    </form>
  );
}

describe("useZodForm", () => {
  it("validates nested and array fields with the schema and submits the parsed values", async () => {
    const user = userEvent.setup();
    const onValid = vi.fn();
    render(<OrderForm onValid={onValid} />);

    await user.click(screen.getByRole("button", { name: "Place order" }));
    expect(screen.getByText("Enter a name")).toBeTruthy();
    expect(screen.getByText("Enter a valid e-mail address")).toBeTruthy();
    expect(screen.getByLabelText("SKU 1").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("Use at least 3 characters")).toBeTruthy();
    expect(onValid).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText("Customer name"), "Ada");
    await user.type(screen.getByLabelText("Customer e-mail"), "ada@example.test");
    await user.type(screen.getByLabelText("SKU 1"), "ABC-1");
    await user.click(screen.getByRole("button", { name: "Add item" }));
    await user.type(screen.getByLabelText("SKU 2"), "XYZ-9");
    await user.clear(screen.getByLabelText("Quantity 2"));
    await user.type(screen.getByLabelText("Quantity 2"), "3");
    await user.click(screen.getByRole("button", { name: "Place order" }));

    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1));
    expect(onValid.mock.calls[0]![0]).toEqual({
      customer: { name: "Ada", email: "ada@example.test" },
      items: [
        { sku: "ABC-1", quantity: 1 },
        { sku: "XYZ-9", quantity: 3 },
      ],
    });
  });

  it("reports an empty array on the array itself", async () => {
    const user = userEvent.setup();
    render(<OrderForm onValid={vi.fn()} />);
    await user.click(screen.getByRole("button", { name: "Remove item 1" }));
    await user.click(screen.getByRole("button", { name: "Place order" }));
    expect(await screen.findByText("Add an item")).toBeTruthy();
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
    expect(screen.getByText("Enter a valid e-mail address")).toBeTruthy();
    expect(email.getAttribute("aria-invalid")).toBe("true");

    await user.clear(email);
    await user.type(email, "fixed@example.test");
    expect(screen.queryByText("Enter a valid e-mail address")).toBeNull();
    expect(email.getAttribute("aria-invalid")).toBeNull();
  });

  it("puts what the submit handler throws on its field or above the form", async () => {
    const user = userEvent.setup();
    const onValid = vi
      .fn()
      .mockRejectedValueOnce(new ApiError("That customer exists already", 409, "CUSTOMER_EXISTS"))
      .mockRejectedValueOnce(new ApiError("Try later", 503));
    render(<OrderForm onValid={onValid} />);
    await user.type(screen.getByLabelText("Customer name"), "Ada");
    await user.type(screen.getByLabelText("Customer e-mail"), "ada@example.test");
    await user.type(screen.getByLabelText("SKU 1"), "ABC-1");

    await user.click(screen.getByRole("button", { name: "Place order" }));
    expect(await screen.findByText("That customer exists already")).toBeTruthy();
    expect(screen.getByLabelText("Customer e-mail").getAttribute("aria-invalid")).toBe("true");
    expect(screen.queryByRole("alert")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Place order" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Try later");
  });
});

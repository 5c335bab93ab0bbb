import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Button } from "./button";

describe("<Button>", () => {
  it("stays focusable while it works, refuses clicks and does not submit its form", () => {
    const onClick = vi.fn();
    const onSubmit = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <Button type="submit" isLoading onClick={onClick}>
          Save
        </Button>
      </form>,
    );
    const button = screen.getByRole("button", { name: "Save" });
    expect(button.hasAttribute("disabled")).toBe(false);
    expect(button.getAttribute("aria-disabled")).toBe("true");
    expect(button.getAttribute("aria-busy")).toBe("true");
    button.focus();
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("is natively disabled, unless asked to stay focusable", () => {
    const onClick = vi.fn();
    render(
      <>
        <Button disabled>Plain</Button>
        <Button disabled focusableWhenDisabled onClick={onClick}>
          Focusable
        </Button>
      </>,
    );
    expect(screen.getByRole("button", { name: "Plain" }).hasAttribute("disabled")).toBe(true);
    const focusable = screen.getByRole("button", { name: "Focusable" });
    expect(focusable.hasAttribute("disabled")).toBe(false);
    expect(focusable.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(focusable);
    expect(onClick).not.toHaveBeenCalled();
  });

  it("runs its action when available", () => {
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Go</Button>);
    fireEvent.click(screen.getByRole("button", { name: "Go" }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.getByRole("button", { name: "Go" }).hasAttribute("aria-disabled")).toBe(false);
  });
});

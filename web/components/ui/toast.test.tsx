import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createToastStore, Toaster } from "./toast";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the toast store", () => {
  it("keeps a toast for its duration, then drops it", () => {
    const store = createToastStore({ durationMs: 5000 });
    store.success("Saved");
    expect(store.getSnapshot()).toEqual([{ id: 1, message: "Saved", tone: "success" }]);
    vi.advanceTimersByTime(4999);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toEqual([]);
  });

  it("dismisses one toast and leaves the others", () => {
    const store = createToastStore();
    const first = store.error("Could not save");
    store.success("Saved");
    store.dismiss(first);
    expect(store.getSnapshot().map((item) => item.message)).toEqual(["Saved"]);
  });

  it("stops the clock while paused and resumes with the time that was left", () => {
    const store = createToastStore({ durationMs: 5000 });
    const id = store.success("Saved");
    vi.advanceTimersByTime(3000);
    store.pause(id);
    vi.advanceTimersByTime(60_000);
    expect(store.getSnapshot()).toHaveLength(1);
    store.resume(id);
    vi.advanceTimersByTime(1999);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toEqual([]);
  });

  it("tells subscribers about every change, and stops when they unsubscribe", () => {
    const store = createToastStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const id = store.success("Saved");
    store.dismiss(id);
    store.dismiss(id);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    store.success("Again");
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe("<Toaster>", () => {
  // fireEvent rather than user-event: user-event waits on timers, and these tests own the (fake) clock.
  it("announces successes politely and errors assertively", () => {
    const store = createToastStore();
    render(<Toaster store={store} />);
    act(() => {
      store.success("Profile saved");
      store.error("Could not reach the server.");
    });
    const status = screen.getByRole("status");
    const alert = screen.getByRole("alert");
    expect(status).toHaveProperty("textContent", expect.stringContaining("Profile saved"));
    expect(alert).toHaveProperty("textContent", expect.stringContaining("Could not reach the server."));
    expect(status.parentElement?.getAttribute("aria-live")).toBe("polite");
    expect(alert.parentElement?.getAttribute("aria-live")).toBe("assertive");
  });

  it("closes a toast with its dismiss button", () => {
    const store = createToastStore();
    render(<Toaster store={store} />);
    act(() => void store.success("Profile saved"));
    fireEvent.click(screen.getByRole("button", { name: "Dismiss notification" }));
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("stays while hovered and leaves after the pointer does", () => {
    const store = createToastStore({ durationMs: 1000 });
    render(<Toaster store={store} />);
    act(() => void store.success("Profile saved"));
    fireEvent.mouseEnter(screen.getByRole("status"));
    act(() => vi.advanceTimersByTime(10_000));
    screen.getByRole("status");
    fireEvent.mouseLeave(screen.getByRole("status"));
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("stays while focus is inside it", () => {
    const store = createToastStore({ durationMs: 1000 });
    render(<Toaster store={store} />);
    act(() => void store.error("Could not save"));
    act(() => screen.getByRole("button", { name: "Dismiss notification" }).focus());
    act(() => vi.advanceTimersByTime(10_000));
    screen.getByRole("alert");
    act(() => screen.getByRole("button", { name: "Dismiss notification" }).blur());
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows toasts away from the last press: at the top after a press low on the screen, at the bottom after one high up", () => {
    const store = createToastStore();
    const { container } = render(<Toaster store={store} />);
    const region = () => container.firstElementChild as HTMLElement;
    fireEvent.pointerDown(document.body, { clientY: window.innerHeight - 40 });
    act(() => void store.success("Saved"));
    expect(region().dataset.edge).toBe("top");
    expect(region().className).toContain("top-20");

    fireEvent.pointerDown(document.body, { clientY: 30 });
    act(() => void store.success("Saved again"));
    expect(region().dataset.edge).toBe("bottom");
    expect(region().className).toContain("bottom-4");
  });

  it("goes by the focused control's place when the press was a key", () => {
    const store = createToastStore();
    const { container } = render(
      <>
        <button type="button">Save</button>
        <Toaster store={store} />
      </>,
    );
    const button = screen.getByRole("button", { name: "Save" });
    button.getBoundingClientRect = () => ({
      top: 10,
      height: 40,
      bottom: 50,
      left: 0,
      right: 80,
      width: 80,
      x: 0,
      y: 10,
      toJSON: () => ({}),
    });
    act(() => button.focus());
    fireEvent.keyDown(button, { key: "Enter" });
    act(() => void store.error("Could not save"));
    expect((container.querySelector("[data-edge]") as HTMLElement).dataset.edge).toBe("bottom");
  });
});

import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type RefObject } from "react";
import { cn } from "../../lib/cn";

export type ToastTone = "success" | "error";
export type ToastItem = { id: number; message: string; tone: ToastTone };
export type ToastApi = { success(message: string): number; error(message: string): number };

type Timer = { handle: ReturnType<typeof setTimeout> | null; remaining: number; startedAt: number };

/**
 * Short messages after an action, held outside React so anything can raise one (a mutation's onError,
 * a router loader): `toast.success("Profile saved")`, `toast.error(errorMessage(error))`.
 * Each toast leaves after `durationMs` unless paused (hovered or focused) or dismissed.
 */
export function createToastStore({ durationMs = 5000 }: { durationMs?: number } = {}) {
  let toasts: readonly ToastItem[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();
  const timers = new Map<number, Timer>();

  function emit() {
    for (const listener of listeners) listener();
  }

  function startTimer(id: number, ms: number) {
    timers.set(id, { handle: setTimeout(() => dismiss(id), ms), remaining: ms, startedAt: Date.now() });
  }

  function show(message: string, tone: ToastTone): number {
    const id = nextId++;
    toasts = [...toasts, { id, message, tone }];
    startTimer(id, durationMs);
    emit();
    return id;
  }

  function dismiss(id: number) {
    const timer = timers.get(id);
    if (timer?.handle) clearTimeout(timer.handle);
    timers.delete(id);
    if (!toasts.some((item) => item.id === id)) return;
    toasts = toasts.filter((item) => item.id !== id);
    emit();
  }

  /** Stops a toast's clock (while the pointer is on it or focus is in it); `resume` restarts it with the time left. */
  function pause(id: number) {
    const timer = timers.get(id);
    if (!timer?.handle) return;
    clearTimeout(timer.handle);
    timers.set(id, {
      handle: null,
      remaining: Math.max(0, timer.remaining - (Date.now() - timer.startedAt)),
      startedAt: 0,
    });
  }

  function resume(id: number) {
    const timer = timers.get(id);
    if (!timer || timer.handle) return;
    startTimer(id, timer.remaining);
  }

  function clear() {
    for (const item of toasts) dismiss(item.id);
  }

  return {
    success: (message: string) => show(message, "success"),
    error: (message: string) => show(message, "error"),
    dismiss,
    pause,
    resume,
    clear,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    getSnapshot: (): readonly ToastItem[] => toasts,
  };
}

export type ToastStore = ReturnType<typeof createToastStore>;

/** The app's one toast store. */
export const toast: ToastStore = createToastStore();

type Edge = "top" | "bottom";

/** Where on the screen the last press was (a click or tap, or Enter/Space on the focused control), if any. */
function usePressedAt(): RefObject<number | null> {
  const pressedAt = useRef<number | null>(null);
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      pressedAt.current = event.clientY;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const target = document.activeElement;
      if (!(target instanceof HTMLElement)) return;
      const rect = target.getBoundingClientRect();
      pressedAt.current = rect.top + rect.height / 2;
    };
    document.addEventListener("pointerdown", onPointerDown, true);
    document.addEventListener("keydown", onKeyDown, true);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown, true);
      document.removeEventListener("keydown", onKeyDown, true);
    };
  }, []);
  return pressedAt;
}

/**
 * Where toasts show. Successes are announced politely (role="status"), errors at once (role="alert").
 * The two live regions stay in the page even when empty, so screen readers notice what is added to them.
 *
 * A toast never covers the button just pressed: it shows at the edge of the screen away from the last press
 * (below the sticky header when the press was in the lower half, at the bottom when it was in the upper half),
 * the same at every width; decided again for each new toast, before it is painted.
 */
export function Toaster({ store = toast }: { store?: ToastStore }) {
  const toasts = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const pressedAt = usePressedAt();
  const [edge, setEdge] = useState<Edge>("top");
  const newest = toasts.at(-1)?.id;
  useLayoutEffect(() => {
    if (newest === undefined || pressedAt.current === null) return;
    setEdge(pressedAt.current < window.innerHeight / 2 ? "bottom" : "top");
  }, [newest, pressedAt]);

  return (
    <div
      data-edge={edge}
      className={cn(
        "pointer-events-none fixed inset-x-4 z-50 flex flex-col gap-2 sm:left-auto sm:w-80",
        // top-20: below the sticky header (h-16), so the header's own buttons stay free too.
        edge === "top" ? "top-20" : "bottom-4",
      )}
    >
      <div aria-live="assertive" className="flex flex-col gap-2">
        {toasts
          .filter((item) => item.tone === "error")
          .map((item) => (
            <ToastCard key={item.id} item={item} store={store} />
          ))}
      </div>
      <div aria-live="polite" className="flex flex-col gap-2">
        {toasts
          .filter((item) => item.tone === "success")
          .map((item) => (
            <ToastCard key={item.id} item={item} store={store} />
          ))}
      </div>
    </div>
  );
}

function ToastCard({ item, store }: { item: ToastItem; store: ToastStore }) {
  const [isHovered, setHovered] = useState(false);
  const [isFocused, setFocused] = useState(false);
  const isPaused = isHovered || isFocused;
  useEffect(() => {
    if (isPaused) store.pause(item.id);
    else store.resume(item.id);
  }, [isPaused, item.id, store]);

  return (
    <div
      role={item.tone === "error" ? "alert" : "status"}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
      className={cn(
        "pointer-events-auto flex items-start gap-3 rounded-lg py-3 pr-2 pl-4 text-sm font-medium shadow-lg",
        item.tone === "success"
          ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900"
          : "bg-red-600 text-white",
      )}
    >
      <p className="min-w-0 flex-1">{item.message}</p>
      <button
        type="button"
        aria-label="Dismiss notification"
        onClick={() => store.dismiss(item.id)}
        className="-my-1 shrink-0 rounded-md px-1.5 text-base leading-6 opacity-70 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-current"
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { cn } from "../../lib/cn";

type Toast = { id: number; message: string; tone: "success" | "error" };
type ToastApi = { success(message: string): void; error(message: string): void };

const ToastContext = createContext<ToastApi | null>(null);

/** Short confirmations after an action, announced politely and gone after a few seconds. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const push = useCallback((message: string, tone: Toast["tone"]) => {
    const id = Date.now() + Math.random();
    setToasts((current) => [...current, { id, message, tone }]);
    setTimeout(() => setToasts((current) => current.filter((toast) => toast.id !== id)), 5000);
  }, []);
  const api = useMemo<ToastApi>(() => ({ success: (message) => push(message, "success"), error: (message) => push(message, "error") }), [push]);
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div aria-live="polite" className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-80 flex-col gap-2">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            role="status"
            className={cn(
              "pointer-events-auto rounded-lg px-4 py-3 text-sm font-medium shadow-lg",
              toast.tone === "success" ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "bg-red-600 text-white",
            )}
          >
            {toast.message}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast needs a ToastProvider");
  return api;
}

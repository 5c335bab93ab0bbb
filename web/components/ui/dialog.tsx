import * as RadixDialog from "@radix-ui/react-dialog";
import { useRef, useState, type ReactNode, type RefObject } from "react";
import { Button } from "./button";

/** Whether focus can go back to `element`: still in the page and not disabled. */
function canTakeFocus(element: HTMLElement | null): element is HTMLElement {
  return element !== null && element.isConnected && !element.matches(":disabled");
}

/**
 * An accessible modal: focus is trapped, Escape closes, the title and description are announced, and on
 * close focus goes back to whatever opened it (Radix only does that for its own Trigger). When what the dialog
 * did removed its opener (a plan switched, a payment fully refunded), focus goes to `fallbackFocus` instead of
 * being lost to the top of the page.
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  size = "md",
  fallbackFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  size?: "md" | "lg";
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const returnFocusTo = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-zinc-950/50 backdrop-blur-sm" />
        <RadixDialog.Content
          onOpenAutoFocus={() => {
            returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            const opener = returnFocusTo.current;
            returnFocusTo.current = null;
            if (canTakeFocus(opener)) opener.focus();
            else fallbackFocus?.current?.focus();
          }}
          className={`fixed top-1/2 left-1/2 z-50 max-h-[calc(100vh-2rem)] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border border-zinc-200 bg-white p-6 shadow-xl dark:border-zinc-800 dark:bg-zinc-900 ${size === "lg" ? "max-w-2xl" : "max-w-md"}`}
        >
          <RadixDialog.Title className="text-lg font-semibold">{title}</RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
              {description}
            </RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
          )}
          <div className="mt-5">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * A dialog's buttons: Cancel, then the action (`children`). On a small screen they stack, the action on top,
 * so neither is cut off.
 */
export function DialogActions({
  onCancel,
  cancelLabel = "Cancel",
  isCancelDisabled,
  children,
}: {
  onCancel: () => void;
  cancelLabel?: string;
  isCancelDisabled?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <Button variant="secondary" onClick={onCancel} disabled={isCancelDisabled}>
        {cancelLabel}
      </Button>
      {children}
    </div>
  );
}

/** Asks before a consequential action; the confirm button shows progress and the dialog closes on success. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  isDanger = true,
  fallbackFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  isDanger?: boolean;
  /** Where focus goes when the action removed what opened the dialog (a revoked session's row). */
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const [isWorking, setWorking] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      fallbackFocus={fallbackFocus}
    >
      <DialogActions onCancel={() => onOpenChange(false)}>
        <Button
          variant={isDanger ? "danger" : "primary"}
          isLoading={isWorking}
          onClick={async () => {
            setWorking(true);
            try {
              await onConfirm();
              onOpenChange(false);
            } catch {
              // The caller has shown the error; the dialog stays open so the person can retry or cancel.
            } finally {
              setWorking(false);
            }
          }}
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import { useState, type ReactNode, type RefObject } from "react";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";

/**
 * Asks before an admin action, like the design system's ConfirmDialog, and also says where focus goes when the
 * action removed what opened it (a revoked session's row, the Unban button once the ban is lifted). Errors are the
 * mutation's toast; the dialog then stays open to retry or cancel.
 */
export function ConfirmActionDialog({
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
  fallbackFocus: RefObject<HTMLElement | null>;
}) {
  const [isWorking, setWorking] = useState(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description} fallbackFocus={fallbackFocus}>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button
          variant={isDanger ? "danger" : "primary"}
          isLoading={isWorking}
          onClick={async () => {
            setWorking(true);
            try {
              await onConfirm();
              onOpenChange(false);
            } catch {
              // The mutation's toast said what went wrong.
            } finally {
              setWorking(false);
            }
          }}
        >
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}

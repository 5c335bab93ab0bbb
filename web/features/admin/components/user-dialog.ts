import type { RefObject } from "react";

/** What every dialog acting on one user takes (ban, set password, set role, impersonate, delete). */
export type UserDialogProps<TUser = { id: string; name: string }> = {
  user: TUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the dialog closes and its trigger is gone (e.g. a menu item). */
  fallbackFocus?: RefObject<HTMLElement | null>;
};

import type { ButtonHTMLAttributes, Ref } from "react";
import { cn } from "../../lib/cn";
import { Spinner } from "./spinner";

type Variant = "primary" | "secondary" | "danger" | "ghost";

const variants: Record<Variant, string> = {
  primary: "bg-brand-600 text-white hover:bg-brand-700 disabled:bg-brand-600/60 aria-disabled:bg-brand-600/60",
  secondary:
    "border border-zinc-300 bg-white text-zinc-900 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800",
  danger: "bg-red-600 text-white hover:bg-red-700 disabled:bg-red-600/60 aria-disabled:bg-red-600/60",
  ghost: "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800",
};

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** The button element (React 19 passes `ref` as a prop): e.g. where a dialog it opened gives focus back. */
  ref?: Ref<HTMLButtonElement>;
  variant?: Variant;
  isLoading?: boolean;
  size?: "sm" | "md";
  /**
   * Keeps a `disabled` button focusable (announced as unavailable, clicks refused) rather than natively disabled,
   * for a button that becomes disabled by its own action (a natively disabled button drops the focus it had).
   */
  focusableWhenDisabled?: boolean;
};

/**
 * A button that shows a spinner and refuses clicks while its action runs. While it runs it stays focusable (marked
 * `aria-disabled`), so a keyboard user who pressed it is not sent back to the top of the page.
 */
export function Button({
  variant = "primary",
  isLoading = false,
  size = "md",
  focusableWhenDisabled = false,
  className,
  disabled,
  children,
  type = "button",
  onClick,
  ...rest
}: ButtonProps) {
  const isUnavailable = Boolean(disabled) || isLoading;
  const keepsFocus = isUnavailable && (isLoading || focusableWhenDisabled);
  return (
    <button
      type={type}
      disabled={isUnavailable && !keepsFocus}
      aria-disabled={keepsFocus || undefined}
      aria-busy={isLoading || undefined}
      // A refused click must not submit the form either (Enter in a field clicks the form's submit button).
      onClick={keepsFocus ? (event) => event.preventDefault() : onClick}
      className={cn(
        "inline-flex items-center justify-center gap-2 rounded-lg font-medium whitespace-nowrap transition-colors disabled:cursor-not-allowed disabled:opacity-70 aria-disabled:cursor-not-allowed aria-disabled:opacity-70",
        size === "sm" ? "px-3 py-1.5 text-sm" : "px-4 py-2 text-sm",
        variants[variant],
        className,
      )}
      {...rest}
    >
      {isLoading ? <Spinner /> : null}
      {children}
    </button>
  );
}

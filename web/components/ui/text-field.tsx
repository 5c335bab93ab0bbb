import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import { cn } from "../../lib/cn";

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & {
  label: string;
  error?: string;
  description?: ReactNode;
  /** Shown after the label on the right, e.g. a "Forgot password?" link. */
  labelAside?: ReactNode;
};

/** A labelled input whose description and error are announced with it. */
export function TextField({ label, error, description, labelAside, className, ...rest }: TextFieldProps) {
  const id = useId();
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {label}
        </label>
        {labelAside}
      </div>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[descriptionId, errorId].filter(Boolean).join(" ") || undefined}
        className={cn(
          "block w-full rounded-lg border bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 disabled:opacity-60 dark:bg-zinc-900 dark:text-zinc-100",
          error ? "border-red-500 focus-visible:outline-red-500" : "border-zinc-300 dark:border-zinc-700",
        )}
        {...rest}
      />
      {description ? (
        <div id={descriptionId} className="text-xs text-zinc-500 dark:text-zinc-400">
          {description}
        </div>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

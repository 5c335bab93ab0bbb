import { useId, type ComponentProps, type ReactNode } from "react";
import { cn } from "../../lib/cn";

type FieldProps = { label: string; error?: string; description?: ReactNode; className?: string };

const controlClass = (error?: string) =>
  cn(
    "block w-full rounded-lg border bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 disabled:opacity-60 dark:bg-zinc-900 dark:text-zinc-100",
    error ? "border-red-500 focus-visible:outline-red-500" : "border-zinc-300 dark:border-zinc-700",
  );

/** Label, control, description and error, wired so the description and error are announced with the control. */
function Field({
  label,
  error,
  description,
  className,
  children,
}: FieldProps & { children: (aria: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode }) {
  const id = useId();
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": [descriptionId, errorId].filter(Boolean).join(" ") || undefined,
      })}
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

/**
 * The controls take `ref` as a prop (React 19), so `{...form.field("email")}` (the form helper's `register`
 * plus the field's error) can be spread straight onto them.
 */
export type TextFieldProps = Omit<ComponentProps<"input">, "id" | "className"> & FieldProps;

export function TextField({ label, error, description, className, ...rest }: TextFieldProps) {
  return (
    <Field label={label} error={error} description={description} className={className}>
      {(aria) => <input {...aria} className={controlClass(error)} {...rest} />}
    </Field>
  );
}

/** A multi-line field; `monospace` (the default) suits code such as JSON, prose reads better without it. */
export function TextAreaField({
  label,
  error,
  description,
  className,
  monospace = true,
  ...rest
}: Omit<ComponentProps<"textarea">, "id" | "className"> & FieldProps & { monospace?: boolean }) {
  return (
    <Field label={label} error={error} description={description} className={className}>
      {(aria) => <textarea {...aria} className={cn(controlClass(error), monospace && "font-mono")} {...rest} />}
    </Field>
  );
}

export function SelectField({
  label,
  error,
  description,
  className,
  children,
  ...rest
}: Omit<ComponentProps<"select">, "id" | "className"> & FieldProps) {
  return (
    <Field label={label} error={error} description={description} className={className}>
      {(aria) => (
        <select {...aria} className={controlClass(error)} {...rest}>
          {children}
        </select>
      )}
    </Field>
  );
}

import { useId, type ReactNode } from "react";
import type { FieldBinding } from "../../lib/form";

export type Choice<V extends string> = { value: V; label: string; description?: ReactNode };

/**
 * A group of radio buttons under a legend, each with a line saying what it means, bound to a form field
 * (`<ChoiceField legend="Role" choices={…} {...form.field("role")} />`). Arrow keys move between the choices,
 * as with any radio group; the field's error is announced with the group.
 */
export function ChoiceField<V extends string>({
  legend,
  choices,
  error,
  className,
  ...registration
}: FieldBinding & { legend: string; choices: ReadonlyArray<Choice<V>>; className?: string }) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset aria-describedby={errorId} className={className}>
      <legend className="mb-1.5 block text-sm font-medium text-zinc-800 dark:text-zinc-200">{legend}</legend>
      <div className="grid gap-2">
        {choices.map((choice) => {
          const descriptionId = choice.description ? `${id}-${choice.value}-description` : undefined;
          return (
            <label
              key={choice.value}
              className="flex cursor-pointer items-start gap-3 rounded-lg border border-zinc-200 px-3 py-2.5 has-checked:border-brand-600 has-checked:bg-brand-50 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-brand-500 has-disabled:cursor-not-allowed has-disabled:opacity-60 dark:border-zinc-800 dark:has-checked:border-brand-400 dark:has-checked:bg-brand-700/20"
            >
              <input
                type="radio"
                value={choice.value}
                aria-describedby={descriptionId}
                className="mt-0.5 size-4 shrink-0 accent-brand-600 focus-visible:outline-none"
                {...registration}
              />
              <span className="min-w-0">
                <span className="block text-sm font-medium">{choice.label}</span>
                {choice.description ? (
                  <span id={descriptionId} className="mt-0.5 block text-xs text-zinc-500 dark:text-zinc-400">
                    {choice.description}
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      {error ? (
        <p id={errorId} className="mt-1.5 text-xs font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

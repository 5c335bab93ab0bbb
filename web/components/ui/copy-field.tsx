import { useId } from "react";
import { Button } from "./button";
import { toast } from "./toast";

/**
 * A value to paste somewhere else (an address for an identity provider, a DNS record): its label, the value in a
 * read-only field (selectable, scrollable when long) and a Copy button named after the label ("Copy ACS URL"). A
 * toast confirms the copy; where the clipboard is refused, it says to copy the value by hand.
 */
export function CopyField({ label, value, description }: { label: string; value: string; description?: string }) {
  const id = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(`${label} copied`);
    } catch {
      toast.error("Could not copy. Select the text and copy it yourself.");
    }
  }
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          aria-describedby={description ? `${id}-description` : undefined}
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full min-w-0 rounded-lg border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-xs text-zinc-900 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100"
        />
        <Button variant="secondary" size="sm" aria-label={`Copy ${label}`} onClick={() => void copy()}>
          Copy
        </Button>
      </div>
      {description ? (
        <p id={`${id}-description`} className="text-xs text-zinc-500 dark:text-zinc-400">
          {description}
        </p>
      ) : null}
    </div>
  );
}

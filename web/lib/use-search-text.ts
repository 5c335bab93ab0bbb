import { useEffect, useState } from "react";
import { useDebouncedValue } from "./use-debounced-value";

/**
 * A search box bound to a value in the address (`committed`): typed into freely, committed once typing pauses.
 * When the address changes by itself (Back, Forward, a shared link), the box shows its value instead. The address
 * keeps at most `maxLength` characters, so the box keeps no more (a longer box would never match it).
 */
export function useSearchText(
  committed: string | undefined,
  onCommit: (value: string | undefined) => void,
  maxLength = Number.POSITIVE_INFINITY,
) {
  const [text, setText] = useState(committed ?? "");
  const [shown, setShown] = useState(committed);
  if (committed !== shown) {
    setShown(committed);
    if ((text.trim() || undefined) !== committed) setText(committed ?? "");
  }
  const debounced = useDebouncedValue(text.trim());
  useEffect(() => {
    // Only what the box holds now counts: while it catches up with Back, the debounced value is an older search.
    if (debounced !== text.trim() || (debounced || undefined) === committed) return;
    onCommit(debounced || undefined);
  }, [debounced, text, committed, onCommit]);
  return [text, (value: string) => setText(value.slice(0, maxLength))] as const;
}

import { useId } from "react";

/** A search box whose label is read to screen readers; `onSearch` gets every keystroke's value. */
export function SearchInput({
  label,
  value,
  placeholder,
  onSearch,
}: {
  label: string;
  value: string;
  placeholder: string;
  onSearch: (value: string) => void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onSearch(event.target.value)}
        placeholder={placeholder}
        className="block w-full max-w-sm rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      />
    </>
  );
}

import { ADMIN_PAGE_SIZES } from "../../../common/admin.schemas";
import { cn } from "../../lib/cn";
import { Button } from "./button";

/**
 * "21–40 of 95" with Previous and Next; hidden when everything fits on one page. A total that is a lower bound (at
 * least the page's end plus one) reads "21–40 of more than 40". A page past the end (an old link) shows no range.
 */
export function Pagination({
  label,
  offset,
  pageSize,
  total,
  totalIsLowerBound = false,
  onChange,
}: {
  label: string;
  offset: number;
  pageSize: number;
  total: number;
  totalIsLowerBound?: boolean;
  onChange: (offset: number) => void;
}) {
  if (total <= pageSize) return null;
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between text-sm">
      <span className="text-zinc-500 dark:text-zinc-400">
        {offset < total ? (
          <>
            {offset + 1}–{Math.min(offset + pageSize, total)} of{" "}
            {totalIsLowerBound ? `more than ${(total - 1).toLocaleString()}` : total.toLocaleString()}
          </>
        ) : null}
      </span>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={offset === 0}
          onClick={() => onChange(Math.max(0, offset - pageSize))}
        >
          Previous
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={offset + pageSize >= total}
          onClick={() => onChange(offset + pageSize)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}

/** "Rows per page" for the lists that page on the server (10, 25, 50 or 100). */
export function PageSizeSelect({
  value,
  onChange,
  className,
}: {
  value: number;
  onChange: (size: number) => void;
  className?: string;
}) {
  return (
    <label className={cn("flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400", className)}>
      Rows per page
      <select
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      >
        {ADMIN_PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </label>
  );
}

import type { ReactNode } from "react";
import { cn } from "../../lib/cn";

/**
 * Below `sm` every table shows each row as a small two-column block instead of side-by-side columns (which would be
 * cut off at 375 px): the column headers stay for screen readers only, and the row becomes a grid
 * (`minmax(0,1fr) auto`). A cell places itself with its own `max-sm:` classes (`max-sm:col-start-2
 * max-sm:row-start-1`, …); a cell without any takes a full line, in order, except that in a table whose last column is
 * its row actions (unnamed), the first cell and the actions share the first line, so the actions always show beside
 * what they act on (`.table-stacked-defaults` in styles.css). A cell whose meaning is not obvious without its header
 * adds a label shown only there (`<MobileLabel>`).
 */
const stackedClass = cn(
  "max-sm:block max-sm:[&>tbody]:block max-sm:[&>thead]:sr-only",
  "max-sm:[&>tbody>tr]:grid max-sm:[&>tbody>tr]:grid-cols-[minmax(0,1fr)_auto] max-sm:[&>tbody>tr]:items-start max-sm:[&>tbody>tr]:gap-x-4 max-sm:[&>tbody>tr]:gap-y-1 max-sm:[&>tbody>tr]:py-3",
  "max-sm:[&>tbody>tr>td]:block max-sm:[&>tbody>tr>td]:min-w-0 max-sm:[&>tbody>tr>td]:p-0 max-sm:[&>tbody>tr>td]:empty:hidden",
  "table-stacked-defaults",
);

/**
 * A data table with column headers announced as such. The last column may be unnamed (row actions); it gets a
 * screen-reader label. Rows become blocks on narrow screens (above).
 */
export function Table({ columns, label, children }: { columns: string[]; label?: string; children: ReactNode }) {
  const hasActions = columns.length > 1 && columns.at(-1) === "";
  return (
    // Between `sm` and a width where every column fits, the table scrolls sideways inside its card.
    <div className="relative overflow-x-auto">
      <table
        aria-label={label}
        data-actions={hasActions || undefined}
        className={cn("w-full text-left text-sm", stackedClass)}
      >
        <thead className="text-xs whitespace-nowrap text-zinc-500 uppercase dark:text-zinc-400">
          <tr>
            {columns.map((column, index) => (
              <th key={column || index} scope="col" className="py-2 pr-4 font-medium last:pr-0">
                {column || <span className="sr-only">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">{children}</tbody>
      </table>
    </div>
  );
}

/** A cell's label shown only where a table hides its column headers ("Joined "). */
export function MobileLabel({ children }: { children: ReactNode }) {
  return <span className="text-zinc-500 sm:hidden dark:text-zinc-400">{children}</span>;
}

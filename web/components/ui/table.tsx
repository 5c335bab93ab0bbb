import type { ReactNode } from "react";

/**
 * A data table: scrolls sideways on narrow screens, with column headers announced as such. The last
 * column may be unnamed (row actions); it gets a screen-reader label.
 */
export function Table({ columns, label, children }: { columns: string[]; label?: string; children: ReactNode }) {
  return (
    <div className="relative overflow-x-auto">
      <table aria-label={label} className="w-full text-left text-sm">
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

/**
 * The look of a row of tab links (`<nav>` of router `Link`s under a bottom border): pass `tabLinkClass` as the
 * link's `className` and `activeTabProps` as its `activeProps`, so the current tab is marked and announced.
 */
export const tabLinkClass =
  "-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100";

export const activeTabProps = { className: "border-brand-600! text-brand-700! dark:text-brand-100!", "aria-current": "page" as const };

export const tabNavClass = "mb-8 flex gap-1 overflow-x-auto border-b border-zinc-200 dark:border-zinc-800";

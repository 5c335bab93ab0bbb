/**
 * How a list page changes its view in the address: with a function of the address as it is when the change lands,
 * not as the page last rendered it. A search committed while a filter's navigation is still loading keeps the
 * filter.
 */
export type SearchChange<S> = (update: (current: S) => S, options?: { replace?: boolean }) => void;

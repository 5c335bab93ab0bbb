/**
 * Awaits a loader's `queryClient.ensureQueryData(…)` calls together, so a page's data is in the cache before
 * it renders: `loader: ({ context: { queryClient } }) => settled(queryClient.ensureQueryData(metaQuery), …)`.
 * A failed fetch does not fail the navigation: the page's own query shows the error where the page shows errors.
 */
export async function settled(...loads: Array<Promise<unknown>>): Promise<void> {
  await Promise.allSettled(loads);
}

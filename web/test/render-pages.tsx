import { QueryClientProvider } from "@tanstack/react-query";
import {
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
} from "@tanstack/react-router";
import { render } from "@testing-library/react";
import type { ReactNode } from "react";
import { vi } from "vitest";
import { createQueryClient } from "../lib/query-client";

/**
 * Renders pages in a router of their own, opened at the first path listed, with a query client whose notices are
 * recorded: each page is a function of nothing, its path the key; the others are where the first one leads.
 */
export function renderPages(pages: Record<string, () => ReactNode>) {
  const notify = { success: vi.fn(), error: vi.fn() };
  const rootRoute = createRootRoute();
  const routes = Object.entries(pages).map(([path, component]) =>
    createRoute({ getParentRoute: () => rootRoute, path, component }),
  );
  const router = createRouter({
    routeTree: rootRoute.addChildren(routes),
    history: createMemoryHistory({ initialEntries: [Object.keys(pages)[0]!] }),
  });
  render(
    <QueryClientProvider client={createQueryClient(notify)}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { notify, router };
}

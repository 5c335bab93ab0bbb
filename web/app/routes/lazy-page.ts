import { LazyRoute, type AnyRoute, type RouteComponent } from "@tanstack/react-router";

/**
 * Puts a route's component in its own chunk: `createRoute({ … }).lazy(lazyPage(() => import("…/x-page"), (m) => m.XPage))`.
 * The router fetches the chunk in parallel with the route's loader (and on link hover, with preload "intent"),
 * and shows the pending component if that takes a while. `pick` may wrap the page to hand it route state.
 */
export function lazyPage<TModule>(load: () => Promise<TModule>, pick: (module: TModule) => RouteComponent) {
  return async <TRoute extends AnyRoute>(): Promise<LazyRoute<TRoute>> => {
    const component = pick(await load());
    // The router keeps its own id for the route and takes only the options from here.
    return new LazyRoute<TRoute>({ id: "", component });
  };
}

import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { currentRequestScope, runInRequestScope, type RequestScope } from "../request-scope";
import type { AppEnv } from "./app-env";
import type { Metrics } from "./metrics";
import { REQUEST_ID_HEADER, requestIdFor } from "./request-id";

/** The route label of a request no route answered (it failed before routing ran). */
export const NO_ROUTE = "(none)";

type Fetch<X> = (request: Request, env?: unknown, executionContext?: X) => Response | Promise<Response>;

/** The socket peer's address, when the request came through @hono/node-server (not through app.request()). */
function peerAddress(env: unknown): string | undefined {
  return (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
}

/**
 * Wraps the app's whole fetch, the read cache's replays included: gives each request its id and scope
 * (server/request-scope.ts) and counts the answer in the metrics by method, route pattern and status, with its
 * duration. On the path every request takes: one `performance.now()` pair, one scope object, a map lookup and a few
 * increments. It never touches the answer: reading a Response's headers turns node-server's lightweight Response
 * into a full one, which cost a replayed read a quarter of its throughput. The id reaches the answer's headers from
 * inside: `requestIdHeader` below, and the read cache's replay (server/http/response-cache.ts). A replayed answer,
 * handed back synchronously, stays synchronous (node-server sends a Response faster than a Promise of one).
 */
export function observeRequests<X>(
  fetch: Fetch<X>,
  deps: { metrics: Metrics; isTrustedPeer(address: string | undefined): boolean },
): Fetch<X> {
  return (request, env, executionContext) => {
    const started = performance.now();
    const sent = request.headers.get(REQUEST_ID_HEADER);
    const scope: RequestScope = {
      requestId: requestIdFor(sent, sent !== null && deps.isTrustedPeer(peerAddress(env))),
      route: NO_ROUTE,
    };
    const answer = runInRequestScope(scope, fetch, request, env, executionContext);
    if (answer instanceof Response) {
      deps.metrics.observeRequest(request.method, scope.route, answer.status, (performance.now() - started) / 1000);
      return answer;
    }
    return answer.then(
      (response) => {
        deps.metrics.observeRequest(request.method, scope.route, response.status, (performance.now() - started) / 1000);
        return response;
      },
      (error: unknown) => {
        deps.metrics.observeRequest(request.method, scope.route, 500, (performance.now() - started) / 1000);
        throw error;
      },
    );
  };
}

/**
 * Sends the request's id back in `X-Request-Id`. The outermost middleware, outside the read cache's `keep`, so a
 * kept answer does not keep one request's id for the next.
 */
export const requestIdHeader: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const requestId = currentRequestScope()?.requestId;
  // Set as securityHeaders sets its own, on the answer's headers.
  if (requestId !== undefined) c.res.headers.set(REQUEST_ID_HEADER, requestId);
};

/**
 * Records the route pattern that answered into the request's scope, for the metrics: Hono's pattern
 * (`/api/organizations/:organizationId`), or for better-auth's catch-all the endpoint's own path when it is one
 * of `authPaths` (no path parameter, so the labels stay bounded).
 */
export function recordRoute(authPaths: ReadonlySet<string>, authRoute: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const scope = currentRequestScope();
    if (scope) scope.route = routeOf(c, authPaths, authRoute);
  };
}

function routeOf(c: Context<AppEnv>, authPaths: ReadonlySet<string>, authRoute: string): string {
  const route = routePath(c) || NO_ROUTE;
  return route === authRoute && authPaths.has(c.req.path) ? c.req.path : route;
}

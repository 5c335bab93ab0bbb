import type { RequestTarget } from "./request";
import type { ServerProcess } from "./server-process";

/**
 * A target for the test clients (server/test/request.ts) that sends real HTTP to a server process: the client's
 * address goes in X-Forwarded-For (the process trusts 127.0.0.1 as a proxy), and a request that takes longer
 * than `timeoutMs` is aborted, so a hung request fails the test instead of stalling it.
 */
export function httpTarget(server: Pick<ServerProcess, "url">, options: { timeoutMs?: number } = {}): RequestTarget {
  const { timeoutMs = 15_000 } = options;
  return {
    config: { baseUrl: server.url },
    app: {
      request: (input, init, env) => {
        const headers = new Headers(init.headers);
        headers.set("x-forwarded-for", env.incoming.socket.remoteAddress);
        return fetch(input, { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
      },
    },
  };
}

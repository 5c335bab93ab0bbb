// Load with autocannon, as many clients: every request comes from a simulated client address of its own.
import autocannon from "autocannon";

let clients = 0;

/**
 * The next simulated client's address, in X-Forwarded-For (the product trusts it from 127.0.0.1): documentation
 * addresses (2001:db8::/32), one /64 per client since the rate limiter buckets IPv6 by /64, so the per-address limits
 * stay on without any one address reaching them.
 */
export function nextClientAddress(): string {
  clients += 1;
  return `2001:db8:${((clients >>> 16) & 0xffff).toString(16)}:${(clients & 0xffff).toString(16)}::1`;
}

export type LoadOptions = {
  baseUrl: string;
  /** Requested in turn by every connection. */
  paths: readonly string[];
  /** When given, the path of every request instead: each one distinct, say, so no answer is replayed. */
  nextPath?: () => string;
  /** When given, requests a second across all connections; as many as the server answers otherwise. */
  overallRate?: number;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
};

export type LoadResult = { requestsPerSecond: number; p50: number; p99: number; errors: number };

/** Runs autocannon for `seconds`. Errors are answers other than 2xx plus failed or timed-out connections. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers ?? {},
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    requests: options.paths.map((path) => ({
      method: "GET" as const,
      path,
      setupRequest: (request) => ({
        ...request,
        path: options.nextPath ? options.nextPath() : request.path,
        headers: { ...request.headers, "x-forwarded-for": nextClientAddress() },
      }),
    })),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

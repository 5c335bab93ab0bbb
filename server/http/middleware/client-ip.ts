import { isIP } from "node:net";
import type { MiddlewareHandler } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import proxyAddr from "proxy-addr";
import type { Logger } from "../../logger";
import type { AppEnv } from "../app-env";

/** The header better-auth reads the client address from; only this middleware writes it. */
export const CLIENT_IP_HEADER = "x-atrium-client-ip";

/** One warning a minute at most: a misconfigured proxy sends the header on every request. */
const UNTRUSTED_FORWARD_WARNING_INTERVAL_MS = 60_000;

function normalise(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith("::ffff:") && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

export type ClientIpResolver = {
  /** The client address: the socket's, unless the socket is a trusted proxy (then X-Forwarded-For is read). */
  resolve(socketAddress: string | undefined, forwardedFor: string | undefined): string | undefined;
  isTrusted(address: string): boolean;
  /** Whether the socket's peer (an address as Node reports it, IPv4-mapped or not) is a trusted proxy. */
  isTrustedPeer(socketAddress: string | undefined): boolean;
};

/**
 * `trustedProxies` are addresses, CIDR ranges or proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`).
 * Behind a trusted socket, X-Forwarded-For is walked from the right, skipping trusted proxies, and the first
 * other address is the client: a client cannot choose its address by prepending one.
 */
export function createClientIpResolver(trustedProxies: string[]): ClientIpResolver {
  const trust = proxyAddr.compile(trustedProxies);
  const isTrusted = (address: string) => isIP(address) !== 0 && trust(address, 0);
  return {
    isTrusted,
    isTrustedPeer: (socketAddress) => socketAddress !== undefined && isTrusted(normalise(socketAddress)),
    resolve(socketAddress, forwardedFor) {
      let client = socketAddress ? normalise(socketAddress) : undefined;
      if (!client || !isTrusted(client) || !forwardedFor) return client;
      const hops = forwardedFor
        .split(",")
        .map(normalise)
        .filter((hop) => isIP(hop) !== 0);
      for (let index = hops.length - 1; index >= 0; index -= 1) {
        client = hops[index]!;
        if (!isTrusted(client)) return client;
      }
      return client;
    },
  };
}

/** Copies a request for better-auth with the resolved client address, replacing any client-sent copy. */
export function withClientIpHeader(request: Request, ip: string | undefined): Request {
  return new Request(request, { headers: headersWithClientIp(request.headers, ip), duplex: "half" } as RequestInit);
}

/** Request headers with the client address the app resolved, as better-auth's endpoints read it. */
export function headersWithClientIp(headers: Headers, ip: string | undefined): Headers {
  const copy = new Headers(headers);
  copy.delete(CLIENT_IP_HEADER);
  if (ip) copy.set(CLIENT_IP_HEADER, ip);
  return copy;
}

export function clientIp(trustedProxies: string[], logger: Logger): MiddlewareHandler<AppEnv> {
  const resolver = createClientIpResolver(trustedProxies);
  let lastWarningAt = Number.NEGATIVE_INFINITY;
  let ignoredSinceWarning = 0;
  return async (c, next) => {
    let socketAddress: string | undefined;
    try {
      socketAddress = getConnInfo(c).remote.address;
    } catch {
      socketAddress = undefined; // app.request() in tests has no socket
    }
    const forwardedFor = c.req.header("x-forwarded-for");
    if (forwardedFor && socketAddress && !resolver.isTrusted(normalise(socketAddress))) {
      ignoredSinceWarning += 1;
      const now = Date.now();
      if (now - lastWarningAt >= UNTRUSTED_FORWARD_WARNING_INTERVAL_MS) {
        logger.warn(
          "X-Forwarded-For from a peer that is not in TRUSTED_PROXIES was ignored; if it is your proxy, add it",
          {
            peer: normalise(socketAddress),
            ignoredRequests: ignoredSinceWarning,
          },
        );
        lastWarningAt = now;
        ignoredSinceWarning = 0;
      }
    }
    c.set("clientIp", resolver.resolve(socketAddress, forwardedFor));
    await next();
  };
}

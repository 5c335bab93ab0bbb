import { isIP } from "node:net";
import type { MiddlewareHandler } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { AppEnv } from "../app-env";

/** The header better-auth reads the client address from; only this middleware writes it. */
export const CLIENT_IP_HEADER = "x-atrium-client-ip";

function normalise(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith("::ffff:") && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

/**
 * The client address is the socket's, unless the socket is a trusted proxy: then X-Forwarded-For is
 * walked from the right, skipping trusted proxies, and the first other address is the client.
 */
export function resolveClientIp(socketAddress: string | undefined, forwardedFor: string | undefined, trustedProxies: string[]): string | undefined {
  const trusted = new Set(trustedProxies.map(normalise));
  let client = socketAddress ? normalise(socketAddress) : undefined;
  if (!client || !trusted.has(client) || !forwardedFor) return client;
  const hops = forwardedFor
    .split(",")
    .map(normalise)
    .filter((hop) => isIP(hop) !== 0);
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    client = hops[index]!;
    if (!trusted.has(client)) return client;
  }
  return client;
}

/** Copies a request for better-auth with the resolved client address, replacing any client-sent copy. */
export function withClientIpHeader(request: Request, ip: string | undefined): Request {
  const headers = new Headers(request.headers);
  headers.delete(CLIENT_IP_HEADER);
  if (ip) headers.set(CLIENT_IP_HEADER, ip);
  return new Request(request, { headers, duplex: "half" } as RequestInit);
}

export function clientIp(trustedProxies: string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let socketAddress: string | undefined;
    try {
      socketAddress = getConnInfo(c).remote.address;
    } catch {
      socketAddress = undefined; // app.request() in tests has no socket
    }
    c.set("clientIp", resolveClientIp(socketAddress, c.req.header("x-forwarded-for"), trustedProxies));
    await next();
  };
}

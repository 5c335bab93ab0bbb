import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small load balancer in front of real server processes, as the rolling-upgrade test needs one: round robin over
 * the instances whose last health check (`GET /readyz`, every `checkEveryMs`) answered 200. An instance that answers
 * anything else, or nothing within `checkTimeoutMs`, is out of the rotation until a check answers 200 again; one just
 * added is out until its first 200. So an instance that is shutting down (503 at once, while it still serves for its
 * SHUTDOWN_DELAY_MS) stops getting requests within a check's period.
 *
 * What it retries, as real load balancers do: only a request whose connection was refused (ECONNREFUSED), before
 * any byte of it was sent, goes to the next instance; the instance never saw it. Any other failure (a reset, a
 * timeout, a connection closed before the answer) may have reached the application, which may have acted on it (a
 * sign-in, an invitation), so it is answered 502 and never sent twice. Each request to an instance goes on a
 * connection of its own (HTTP/1.1 `Connection: close` upstream), so an instance closing its idle keep-alive
 * connections while it drains cannot race a request sent on one of them.
 *
 * Every answer carries `X-Upstream` (the instance's name), and the proxy appends the client's address to
 * `X-Forwarded-For`, as a trusted proxy does.
 */
export type RoundRobinProxy = {
  url: string;
  port: number;
  /** Adds an instance, out of the rotation until its first health check answers 200. */
  add(instance: { name: string; port: number }): void;
  /** Takes an instance out of the rotation and stops checking it. */
  remove(name: string): void;
  /** Whether requests go to the instance now. */
  isInRotation(name: string): boolean;
  /** Requests answered through each instance, by name. */
  answered: Map<string, number>;
  /** Requests sent to the next instance because the connection to one was refused. */
  readonly retriedAfterRefusal: number;
  /** Requests the proxy itself answered 502 (an instance failed mid-way) or 503 (no instance in the rotation). */
  failed: Array<{ method: string; path: string; status: number; reason: string }>;
  close(): Promise<void>;
};

type Instance = { name: string; port: number; ready: boolean; checking: boolean };

/** Request headers that belong to one connection, not to the request: never passed on (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "proxy-authorization",
  "proxy-authenticate",
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

export async function startRoundRobinProxy(
  options: { checkEveryMs?: number; checkTimeoutMs?: number } = {},
): Promise<RoundRobinProxy> {
  const { checkEveryMs = 200, checkTimeoutMs = 5_000 } = options;
  const instances: Instance[] = [];
  const checks = new Map<Instance, NodeJS.Timeout>();
  let next = 0;
  let retriedAfterRefusal = 0;
  const answered = new Map<string, number>();
  const failed: RoundRobinProxy["failed"] = [];

  function check(instance: Instance): void {
    if (instance.checking) return;
    instance.checking = true;
    const request = http.get(
      { host: "127.0.0.1", port: instance.port, path: "/readyz", agent: false, timeout: checkTimeoutMs },
      (response) => {
        response.resume();
        response.on("end", () => settle(response.statusCode === 200));
        response.on("error", () => settle(false));
      },
    );
    request.on("timeout", () => request.destroy(new Error("health check timed out")));
    request.on("error", () => settle(false));
    function settle(ready: boolean) {
      if (!instance.checking) return;
      instance.checking = false;
      instance.ready = ready;
    }
  }

  /** The next instance in the rotation, round robin, skipping those already tried for this request. */
  function pick(tried: Set<Instance>): Instance | undefined {
    for (let step = 0; step < instances.length; step += 1) {
      const instance = instances[(next + step) % instances.length]!;
      if (instance.ready && !tried.has(instance)) {
        next = (next + step + 1) % instances.length;
        return instance;
      }
    }
    return undefined;
  }

  function forward(
    incoming: http.IncomingMessage,
    outgoing: http.ServerResponse,
    body: Buffer,
    tried: Set<Instance>,
  ): void {
    const fail = (status: number, reason: string) => {
      failed.push({ method: incoming.method ?? "", path: incoming.url ?? "", status, reason });
      if (outgoing.headersSent) outgoing.destroy();
      else outgoing.writeHead(status, { "content-type": "text/plain" }).end(reason);
    };
    const instance = pick(tried);
    if (!instance) return fail(503, "no instance is ready");
    tried.add(instance);
    const forwardedFor = [incoming.headers["x-forwarded-for"], incoming.socket.remoteAddress].filter(Boolean);
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: instance.port,
        method: incoming.method,
        path: incoming.url,
        agent: false,
        headers: {
          ...endToEnd(incoming.headers),
          "x-forwarded-for": forwardedFor.join(", "),
          "content-length": String(body.length),
          connection: "close",
        },
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, { ...endToEnd(response.headers), "x-upstream": instance.name });
        response.pipe(outgoing);
        response.on("end", () => answered.set(instance.name, (answered.get(instance.name) ?? 0) + 1));
        response.on("error", (error) => fail(502, `${instance.name}: the answer broke off: ${error.message}`));
      },
    );
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      // Refused: the connection was never made, so nothing of the request reached the instance.
      if (error.code === "ECONNREFUSED" && !outgoing.headersSent) {
        retriedAfterRefusal += 1;
        return forward(incoming, outgoing, body, tried);
      }
      fail(502, `${instance.name}: ${error.code ?? error.message}`);
    });
    upstream.end(body);
  }

  const server = http.createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => forward(incoming, outgoing, Buffer.concat(chunks), new Set()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    answered,
    failed,
    get retriedAfterRefusal() {
      return retriedAfterRefusal;
    },
    add({ name, port: instancePort }) {
      const instance: Instance = { name, port: instancePort, ready: false, checking: false };
      checks.set(
        instance,
        setInterval(() => check(instance), checkEveryMs),
      );
      instances.push(instance);
      check(instance);
    },
    remove(name) {
      const index = instances.findIndex((instance) => instance.name === name);
      if (index < 0) return;
      clearInterval(checks.get(instances[index]!));
      checks.delete(instances[index]!);
      instances.splice(index, 1);
    },
    isInRotation: (name) => instances.some((instance) => instance.name === name && instance.ready),
    async close() {
      for (const timer of checks.values()) clearInterval(timer);
      checks.clear();
      instances.length = 0;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

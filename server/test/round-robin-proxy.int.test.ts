import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { waitFor } from "./factories";
import { startRoundRobinProxy, type RoundRobinProxy } from "./round-robin-proxy";

/**
 * The rolling-upgrade test's balancer (server/test/round-robin-proxy.ts), against plain HTTP servers standing in for
 * instances: what it sends where, what it retries and what it never sends twice.
 */

type Backend = {
  port: number;
  /** The requests it received in full: method and path. */
  received: string[];
  /** What /readyz answers. */
  readiness: number;
  /** When set, a request other than /readyz is read in full and its connection destroyed without an answer. */
  resetAfterReading: boolean;
  server: http.Server;
};

const servers: http.Server[] = [];
let proxy: RoundRobinProxy | undefined;

async function startBackend(name: string): Promise<Backend> {
  const backend = { received: [], readiness: 200, resetAfterReading: false } as unknown as Backend;
  backend.server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.url === "/readyz") return response.writeHead(backend.readiness).end();
      backend.received.push(`${request.method} ${request.url}`);
      if (backend.resetAfterReading) return request.socket.destroy();
      response.writeHead(200, { "content-type": "text/plain" }).end(name);
    });
  });
  await new Promise<void>((resolve) => backend.server.listen(0, "127.0.0.1", resolve));
  backend.port = (backend.server.address() as AddressInfo).port;
  servers.push(backend.server);
  return backend;
}

function send(method: string, path: string): Promise<{ status: number; body: string; upstream?: string }> {
  return fetch(`${proxy!.url}${path}`, { method, body: method === "POST" ? "{}" : undefined }).then(
    async (response) => ({
      status: response.status,
      body: await response.text(),
      upstream: response.headers.get("x-upstream") ?? undefined,
    }),
  );
}

afterEach(async () => {
  await proxy?.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("round robin over the ready instances; one whose /readyz turns 503 gets nothing more", async () => {
  const [a, b] = await Promise.all([startBackend("a"), startBackend("b")]);
  proxy = await startRoundRobinProxy({ checkEveryMs: 20 });
  proxy.add({ name: "a", port: a.port });
  proxy.add({ name: "b", port: b.port });
  await waitFor(() => proxy!.isInRotation("a") && proxy!.isInRotation("b"), { what: "both in the rotation" });

  const answers = [];
  for (let index = 0; index < 4; index += 1) answers.push(await send("GET", "/x"));
  expect(answers.map((answer) => answer.upstream).sort()).toEqual(["a", "a", "b", "b"]);
  expect(answers.every((answer) => answer.status === 200 && answer.body === answer.upstream)).toBe(true);

  a.readiness = 503;
  await waitFor(() => !proxy!.isInRotation("a"), { what: "a to leave the rotation" });
  a.received.length = 0;
  for (let index = 0; index < 4; index += 1) expect((await send("POST", "/y")).upstream).toBe("b");
  expect(a.received).toEqual([]);
  expect(proxy.answered).toEqual(
    new Map([
      ["a", 2],
      ["b", 6],
    ]),
  );
});

test("a refused connection is retried on the next instance; a failure after the request was sent is not", async () => {
  const [a, b] = await Promise.all([startBackend("a"), startBackend("b")]);
  // Checked once, at the start: the proxy still takes a for ready after it stops listening.
  proxy = await startRoundRobinProxy({ checkEveryMs: 600_000 });
  proxy.add({ name: "a", port: a.port });
  proxy.add({ name: "b", port: b.port });
  await waitFor(() => proxy!.isInRotation("a") && proxy!.isInRotation("b"), { what: "both in the rotation" });

  // a stops listening: its connections are refused, so each request meant for it goes to b.
  await new Promise((resolve) => a.server.close(resolve));
  const refused = [await send("POST", "/sign-in"), await send("POST", "/sign-in")];
  expect(refused.map((answer) => [answer.status, answer.upstream])).toEqual([
    [200, "b"],
    [200, "b"],
  ]);
  expect(proxy.retriedAfterRefusal).toBe(2);
  expect(b.received).toEqual(["POST /sign-in", "POST /sign-in"]);

  // b reads a request and drops the connection without answering: it may have acted on it, so the client gets a
  // 502 and nothing is sent again (a is refused, and would be tried first, being next in turn).
  b.received.length = 0;
  b.resetAfterReading = true;
  const reset = await send("POST", "/invite");
  expect(reset.status).toBe(502);
  expect(b.received).toEqual(["POST /invite"]);
  expect(proxy.failed).toEqual([{ method: "POST", path: "/invite", status: 502, reason: "b: ECONNRESET" }]);
  expect(proxy.retriedAfterRefusal).toBe(3);
});

test("an instance joins the rotation at its first 200; while none is ready the proxy answers 503 itself", async () => {
  const a = await startBackend("a");
  a.readiness = 503;
  proxy = await startRoundRobinProxy({ checkEveryMs: 20 });
  proxy.add({ name: "a", port: a.port });
  expect(await send("GET", "/x")).toEqual({ status: 503, body: "no instance is ready", upstream: undefined });
  expect(a.received).toEqual([]);
  expect(proxy.failed).toEqual([{ method: "GET", path: "/x", status: 503, reason: "no instance is ready" }]);

  a.readiness = 200;
  await waitFor(() => proxy!.isInRotation("a"), { what: "a to join the rotation" });
  expect(await send("GET", "/x")).toEqual({ status: 200, body: "a", upstream: "a" });
});

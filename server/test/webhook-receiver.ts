import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type ReceivedWebhook = { path: string; headers: Record<string, string>; body: string };

/**
 * A real HTTP receiver for webhook tests, on 127.0.0.1: `/ok` answers 200, `/fail` 500 (with a body), `/gone` 410,
 * `/hang` never answers, `/redirect` 302 to `/ok`. It keeps what it was sent, per path, in arrival order.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(",") : (value ?? ""),
        ]),
      );
      const path = request.url ?? "/";
      received.push({ path, headers, body: Buffer.concat(chunks).toString("utf8") });
      if (path === "/hang") return;
      if (path === "/fail") return void response.writeHead(500).end("receiver broke: database down");
      if (path === "/gone") return void response.writeHead(410).end("gone");
      if (path === "/redirect") return void response.writeHead(302, { location: "/ok" }).end();
      response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    at: (path: string) => received.filter((request) => request.path === path),
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** Verifies a received webhook with the standardwebhooks library; answers its parsed body, or throws. */
export function verifyWebhook(
  secret: string,
  request: ReceivedWebhook,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(request.body, request.headers) as never;
}

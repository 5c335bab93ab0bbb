import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../test/free-port";
import { withTimeout } from "../timeout";
import { openDatabase } from "./database";

describe("a PostgreSQL server that does not answer", () => {
  const sockets = new Set<Socket>();
  // Accepts the connection and never says a word: a host gone from the network, or a frozen server.
  const silent = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
  });
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    await new Promise<void>((resolve) => silent.listen(port, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  test("fails a query after the pool's 5 s connect timeout instead of never", async () => {
    const database = openDatabase({ dialect: "postgres", url: `postgres://atrium@127.0.0.1:${port}/atrium` });
    const startedAt = Date.now();
    const outcome = await withTimeout(10_000, "still waiting after 10 s", () => database.ping()).then(
      () => "answered",
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/timeout/i);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(4_900);
    await database.close();
  });
});

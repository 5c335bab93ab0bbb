import net from "node:net";
import { afterAll, expect, test } from "vitest";
import { startServerProcess } from "./test/server-process";
import { createTestDatabase, type TestDatabase } from "./test/test-database";

/** Starting on a port another process holds says so in one line and exits 1, without a stack trace. */

let database: TestDatabase | undefined;
const holder = net.createServer();

afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
  await database?.drop();
});

test("a port already in use: one clear line on stderr, exit code 1", async () => {
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const port = (holder.address() as net.AddressInfo).port;
  database = await createTestDatabase();
  const server = await startServerProcess({
    name: "second",
    port,
    env: { DATABASE_URL: database.url, DATA_DIR: database.dataDir },
    waitUntilHealthy: false,
  });
  expect(await server.exited).toBe(1);
  const said = server.output.filter((line) => line.trim() !== "");
  expect(said).toContain(
    `Port ${port} on 127.0.0.1 is already in use: stop the process using it, or set PORT to another port.`,
  );
  expect(said.some((line) => line.includes("EADDRINUSE") || /^\s+at /.test(line))).toBe(false);
}, 120_000);

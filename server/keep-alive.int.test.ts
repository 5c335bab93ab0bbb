import http from "node:http";
import { afterAll, expect, test } from "vitest";
import { startServerProcess, type ServerProcess } from "./test/server-process";
import { createTestDatabase, type TestDatabase } from "./test/test-database";

/**
 * An idle keep-alive connection outlives Node's default 5 s: a client that reuses it after a pause (a browser test's
 * API client, a load balancer with a 60 s idle timeout) is answered, not reset.
 */

let database: TestDatabase | undefined;
let server: ServerProcess | undefined;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

afterAll(async () => {
  agent.destroy();
  await server?.stop();
  await database?.drop();
});

function get(url: string): Promise<{ status: number; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      response.resume();
      response.once("end", () => resolve({ status: response.statusCode ?? 0, reusedSocket: request.reusedSocket }));
    });
    request.once("error", reject);
  });
}

test("a keep-alive connection idle for 6 s is reused and answered", async () => {
  database = await createTestDatabase();
  server = await startServerProcess({
    name: "keep-alive",
    env: { DATABASE_URL: database.url, DATA_DIR: database.dataDir },
  });
  expect(await get(`${server.url}/livez`)).toEqual({ status: 200, reusedSocket: false });
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  expect(await get(`${server.url}/livez`)).toEqual({ status: 200, reusedSocket: true });
}, 120_000);

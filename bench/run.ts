// `npm run bench`: load-tests the hottest read paths of a real server (SQLite in a temp folder, or
// DATABASE_URL if set) with autocannon on 127.0.0.1 and prints requests per second and latency.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import { createApp } from "../server/app";
import { loadConfig } from "../server/config";
import { createLogger } from "../server/logger";
import { createServices } from "../server/services";

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const dataDir = mkdtempSync(path.join(tmpdir(), "atrium-bench-"));
// Requests carry a different X-Forwarded-For each (trusted from 127.0.0.1), as many clients would,
// so the per-address rate limits stay on without one address exhausting them.
const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: "error", PORT: "0", TRUSTED_PROXIES: "127.0.0.1" });
const logger = createLogger("error");
const services = await createServices(config, logger);
const webDist = path.resolve(import.meta.dirname, "../dist/web");
const app = createApp({ ...services, config, logger, webDist: existsSync(path.join(webDist, "index.html")) ? webDist : undefined });
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise((resolve) => server.once("listening", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// One verified user with a session: get-session is what every page load asks.
const origin = config.baseUrl;
const email = `bench-${Date.now()}@example.test`;
await fetch(`${base}/api/auth/sign-up/email`, {
  method: "POST",
  headers: { "content-type": "application/json", origin },
  body: JSON.stringify({ name: "Bench", email, password: "bench-password-1" }),
});
await services.database.db
  .updateTable("user")
  .set({ emailVerified: config.database.dialect === "sqlite" ? (1 as never) : true })
  .where("email", "=", email)
  .execute();
const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
  method: "POST",
  headers: { "content-type": "application/json", origin },
  body: JSON.stringify({ email, password: "bench-password-1" }),
});
const cookie = signIn.headers
  .getSetCookie()
  .map((value) => value.split(";")[0])
  .join("; ");

async function run(title: string, url: string, headers: Record<string, string> = {}) {
  let client = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers,
    requests: [
      {
        setupRequest: (request) => {
          client += 1;
          // Documentation addresses (2001:db8::/32), one /64 per client: the limiter buckets IPv6 by /64.
          return { ...request, headers: { ...request.headers, "x-forwarded-for": `2001:db8:${(client & 0xffff).toString(16)}::1` } };
        },
      },
    ],
  });
  const non2xx = result.non2xx + result.errors;
  console.log(
    `${title.padEnd(28)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   ${non2xx ? `${non2xx} failed` : "all 2xx"}`,
  );
}

console.log(`${config.database.dialect}, ${CONNECTIONS} connections, ${DURATION_SECONDS} s each`);
await run("GET /healthz", `${base}/healthz`);
await run("GET /api/auth/get-session", `${base}/api/auth/get-session`, { cookie });
await run("GET / (web app)", `${base}/`);

server.close();
await services.close();
rmSync(dataDir, { recursive: true, force: true });

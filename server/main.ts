import { existsSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { clusterWorkerRole, isClusterPrimary, runClusterPrimary } from "./cluster";
import { ConfigError, loadConfig } from "./config";
import { createLogger } from "./logger";

/**
 * The only file that listens: loadConfig() -> services (database, migrations, auth, worker) -> serve(createApp()).
 * With WEB_CONCURRENCY > 1 this process becomes the cluster's primary (server/cluster.ts: migrations, then
 * supervising the workers), and each worker it forks runs this file again and listens on the shared port.
 */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  if (isClusterPrimary(config)) {
    process.exit(await runClusterPrimary(config, createLogger(config.logLevel, { pid: process.pid })));
  }
  // Loaded here, not above: a cluster's primary serves nothing and stays small without the app.
  const [{ createApp }, { createServices }] = await Promise.all([import("./app"), import("./services")]);
  // In a cluster every line says which process wrote it, and only one worker runs the background jobs.
  const role = clusterWorkerRole();
  const logger = createLogger(config.logLevel, role ? { pid: process.pid } : {});
  const services = await createServices(config, logger, role ? { runJobs: role.runJobs, migrate: false } : {});
  // Production refuses to start without the built web app (createApp throws); elsewhere the API is served alone,
  // as `npm run dev` (Vite serves the web app) and the integration tests that start this file need.
  const builtWeb = path.join(repositoryRoot(), "dist/web");
  const webDist = config.isProduction || existsSync(path.join(builtWeb, "index.html")) ? builtWeb : undefined;
  if (!webDist)
    logger.warn("the web app is not built: serving the API only (npm start builds it, or run npm run build)", {
      missing: builtWeb,
    });
  let isShuttingDown = false;
  const app = createApp({ ...services, config, logger, webDist, readiness: { isShuttingDown: () => isShuttingDown } });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info("Atrium is listening", {
      url: config.baseUrl,
      address: `${info.address}:${info.port}`,
      database: config.database.dialect,
      mail: config.mail.devMailbox ? `dev mailbox at ${config.baseUrl}/dev/mail` : "smtp",
      ...(role ? { worker: role.slot, jobs: role.runJobs } : {}),
    });
  }) as Server; // plain HTTP/1.1: serve() makes an http.Server unless told otherwise
  // A client or load balancer reuses an idle keep-alive connection for up to its own idle timeout (60 s on the common
  // balancers): a server that closes it sooner (Node's default is 5 s) races the next request, which is reset.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  // A port another process holds is a setting to change, not a crash: one line saying so, exit 1.
  server.once("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EADDRINUSE") throw error;
    const port = `Port ${config.port} on ${config.host}`;
    process.stderr.write(`${port} is already in use: stop the process using it, or set PORT to another port.\n`);
    process.exit(1);
  });

  /**
   * A graceful stop, as a load balancer needs it: /readyz answers 503 at once while the server keeps serving for
   * SHUTDOWN_DELAY_MS (the balancer's health check sees it and stops sending); then the listener closes, idle
   * keep-alive connections are closed, and the requests in flight finish; then the background jobs stop after
   * the one they are running (the mail being sent is sent and marked) and the services close. Past
   * SHUTDOWN_TIMEOUT_MS after the delay, what is left is abandoned and the process exits 1.
   */
  const shutdown = async (signal: string) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    const { delayMs, timeoutMs } = config.shutdown;
    logger.info("shutting down", { signal, notReadyFor: delayMs, thenFinishWithin: timeoutMs });
    const force = setTimeout(() => {
      logger.error(`still shutting down ${timeoutMs} ms after the listener closed: exiting without finishing`, {
        signal,
      });
      process.exit(1);
    }, delayMs + timeoutMs);
    force.unref();
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    logger.info("closing the listener; waiting for the requests in flight");
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // A keep-alive connection becomes idle when its request is answered: close each as soon as it is.
    const closeIdle = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    server.closeIdleConnections();
    await closed;
    clearInterval(closeIdle);
    await services.close();
    logger.info("shut down");
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

/** How long an idle keep-alive connection stays open: past the balancers' 60 s, so they close it first. */
const KEEP_ALIVE_MS = 65_000;

/** How often, while the listener closes, connections that just became idle are closed. */
const IDLE_SWEEP_MS = 50;

/** The folder of package.json above this module: server/ when run from source, dist/server/ when compiled. */
function repositoryRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

await main();

import { existsSync } from "node:fs";
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
  if (!webDist) logger.warn("the web app is not built: serving the API only (npm start builds it, or run npm run build)", { missing: builtWeb });
  const app = createApp({ ...services, config, logger, webDist });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info("Atrium is listening", {
      url: config.baseUrl,
      address: `${info.address}:${info.port}`,
      database: config.database.dialect,
      mail: config.mail.devMailbox ? `dev mailbox at ${config.baseUrl}/dev/mail` : "smtp",
      ...(role ? { worker: role.slot, jobs: role.runJobs } : {}),
    });
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info("shutting down", { signal });
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(async () => {
      await services.close();
      process.exit(0);
    });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

/** The folder of package.json above this module: server/ when run from source, dist/server/ when compiled. */
function repositoryRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

await main();

import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import { createServices } from "./services";
import { ConfigError, loadConfig } from "./config";
import { createLogger } from "./logger";

/** The only file that listens: loadConfig() -> services (database, migrations, auth, worker) -> serve(createApp()). */
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
  const logger = createLogger(config.logLevel);
  const services = await createServices(config, logger);
  const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/web");
  const app = createApp({ ...services, config, logger, webDist });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info("Atrium is listening", {
      url: config.baseUrl,
      address: `${info.address}:${info.port}`,
      database: config.database.dialect,
      mail: config.mail.devMailbox ? `dev mailbox at ${config.baseUrl}/dev/mail` : "smtp",
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

await main();

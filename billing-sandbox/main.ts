import { serve } from "@hono/node-server";
import { loadSandboxConfig, SandboxConfigError, type SandboxConfig } from "./config";
import { createBillingSandbox } from "./index";

/** `npm run sandbox`: the billing sandbox on its own port, outside the app. */
let config: SandboxConfig;
try {
  config = loadSandboxConfig();
} catch (error) {
  if (!(error instanceof SandboxConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const sandbox = createBillingSandbox({
  dataFile: config.dataFile,
  publicUrl: config.publicUrl,
  accessToken: config.accessToken,
  webhookEndpoint: config.webhookEndpoint,
  logger: {
    warn: (message, fields) =>
      console.warn(JSON.stringify({ time: new Date().toISOString(), level: "warn", message, ...fields })),
    error: (message, fields) =>
      console.error(JSON.stringify({ time: new Date().toISOString(), level: "error", message, ...fields })),
  },
});

const server = serve({ fetch: sandbox.app.fetch, port: config.port, hostname: config.host }, (info) => {
  process.stdout.write(
    `Billing sandbox on ${config.publicUrl} (listening on ${info.address}:${info.port}); dashboard at ${config.publicUrl}/dashboard\n`,
  );
});

const shutdown = () => server.close(() => void sandbox.close().then(() => process.exit(0)));
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);

// `npm start`: builds the web app when it is missing or older than its sources, then runs the server.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildWebApp, isWebBuildStale } from "./web-build.mjs";

const root = path.resolve(import.meta.dirname, "..");

if (isWebBuildStale(root)) {
  console.log("Building the web app…");
  const status = buildWebApp(root);
  if (status !== 0) process.exit(status);
}

// The server runs in this process, so SIGTERM reaches its graceful shutdown directly.
const { register } = await import("tsx/esm/api");
register();
await import(pathToFileURL(path.join(root, "server/main.ts")).href);

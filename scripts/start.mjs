// `npm start`: builds the web app and the server when either is missing or older than its sources, then runs the
// compiled server (dist/server/main.js) on plain node.
import cluster from "node:cluster";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, staleBuilds } from "./build.mjs";

const root = path.resolve(import.meta.dirname, "..");

// With WEB_CONCURRENCY > 1 the server's cluster workers run this file again: the primary has built already.
const stale = cluster.isPrimary ? staleBuilds(root) : [];
if (stale.length > 0) {
  console.log(`Building ${stale.join(" and ")}…`);
  const status = build(root, stale);
  if (status !== 0) process.exit(status);
}

// The server runs in this process (or, in a cluster, its primary does), so SIGTERM reaches its graceful shutdown directly.
await import(pathToFileURL(path.join(root, "dist/server/main.js")).href);

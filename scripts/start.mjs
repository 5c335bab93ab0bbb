// `npm start`: runs the compiled server (dist/server/main.js) on plain node. Outside production it first builds the
// web app and the server when either is missing or older than its sources; in production it refuses to run a
// missing or stale build instead (scripts/builds.mjs), so it needs no devDependency there.
import cluster from "node:cluster";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ensureBuilt } from "./builds.mjs";
import { requireSupportedNode } from "./node-version.mjs";

requireSupportedNode();

const root = path.resolve(import.meta.dirname, "..");

// With WEB_CONCURRENCY > 1 the server's cluster workers run this file again: the primary has checked the builds.
if (cluster.isPrimary) await ensureBuilt(root, ["web", "server"]);

// The server runs in this process (or, in a cluster, its primary does), so SIGTERM reaches its graceful shutdown directly.
await import(pathToFileURL(path.join(root, "dist/server/main.js")).href);

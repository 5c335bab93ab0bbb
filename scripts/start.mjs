// `npm start`: builds the web app when it is missing or older than its sources, then runs the server.
import { spawnSync } from "node:child_process";
import cluster from "node:cluster";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const builtIndex = path.join(root, "dist/web/index.html");

function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sources = ["web", "common"].map((dir) => path.join(root, dir));
// With WEB_CONCURRENCY > 1 the server's cluster workers run this file again: the primary has built already.
const isStale = cluster.isPrimary && (!existsSync(builtIndex) || sources.some((dir) => newestChange(dir) > statSync(builtIndex).mtimeMs));
if (isStale) {
  console.log("Building the web app…");
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The server runs in this process (or, in a cluster, its primary does), so SIGTERM reaches its graceful shutdown directly.
const { register } = await import("tsx/esm/api");
register();
await import(pathToFileURL(path.join(root, "server/main.ts")).href);

// The two builds the product runs from, and whether each is fresh. This module imports no build tool, so a
// production install (`npm ci --omit=dev`: no Vite, no esbuild, no TypeScript) can run it:
//   dist/web      the web app (Vite)
//   dist/server   the server and its command-line entries (every server/**/*-cli.ts), bundled with our own sources
//                 (esbuild); packages stay in node_modules, so they run on plain node
// `npm start` and the operator commands (scripts/cli.mjs) call `ensureBuilt`: outside production it builds what is
// missing or stale (scripts/build.mjs, with the devDependencies), in production it refuses, since a production
// install has nothing to build with and must run exactly what its build stage produced (docs/deployment.md).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export const BUILDS = {
  web: { output: "dist/web/index.html", sources: ["web", "common"] },
  server: { output: "dist/server/main.js", sources: ["server", "common", "billing-sandbox"] },
};

/** @param {string} dir @returns {number} the newest modification time of a file under `dir` in ms; 0 when there is no such folder */
function newestChange(dir) {
  if (!existsSync(dir)) return 0; // a production image ships the build without its sources
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/**
 * @param {string} root the repository
 * @param {Array<"web" | "server">} [names] the builds to look at (both by default)
 * @returns {Array<"web" | "server">} those that are missing or older than a source file
 */
export function staleBuilds(root, names = ["web", "server"]) {
  return names.filter((name) => {
    const { output, sources } = BUILDS[name];
    const built = path.join(root, output);
    if (!existsSync(built)) return true;
    const builtAt = statSync(built).mtimeMs;
    return sources.some((dir) => newestChange(path.join(root, dir)) > builtAt);
  });
}

/**
 * Makes sure the builds `names` are fresh before they run. Outside production the stale ones are built here;
 * in production (NODE_ENV=production) a missing or stale build stops the process with a message saying what to do.
 * @param {string} root @param {Array<"web" | "server">} names
 */
export async function ensureBuilt(root, names) {
  const stale = staleBuilds(root, names);
  if (stale.length === 0) return;
  const outputs = stale.map((name) => path.dirname(BUILDS[name].output)).join(" and ");
  if (process.env.NODE_ENV === "production") {
    process.stderr.write(
      `Atrium: ${outputs} ${stale.length > 1 ? "are" : "is"} missing or older than the sources. In production Atrium runs only a build ` +
        "made beforehand and never builds (the build tools are devDependencies): run `npm ci && npm run build` (a build stage), " +
        "then `npm ci --omit=dev --omit=optional` where it runs. See docs/deployment.md.\n",
    );
    process.exit(1);
  }
  console.log(`Building ${outputs}…`);
  const { build } = await import("./build.mjs");
  const status = build(root, stale);
  if (status !== 0) process.exit(status);
}

// Whether dist/web is older than the web app's sources, and the build that refreshes it: `npm start` and `npm run bench`
// both serve the built app, and neither should serve a stale one.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** @param {string} dir @returns {number} the newest modification time of a file under `dir`, in ms */
function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** @param {string} root the repository @returns {boolean} whether dist/web/index.html is missing or older than a file in web/ or common/ */
export function isWebBuildStale(root) {
  const builtIndex = path.join(root, "dist/web/index.html");
  if (!existsSync(builtIndex)) return true;
  const builtAt = statSync(builtIndex).mtimeMs;
  return ["web", "common"].some((dir) => newestChange(path.join(root, dir)) > builtAt);
}

/** @param {string} root the repository @returns {number} the exit status of `vite build` (its output goes to this terminal) */
export function buildWebApp(root) {
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build"], { cwd: root, stdio: "inherit" });
  return build.status ?? 1;
}

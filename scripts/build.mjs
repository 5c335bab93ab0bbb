// The two builds the product runs from, and whether each is older than its sources: `npm run build`, `npm start`
// and `npm run bench` all serve the built web app and run the compiled server, and none should run a stale one.
//   dist/web      the web app (Vite)
//   dist/server   the server, bundled with its own sources (esbuild); packages stay in node_modules, so it runs
//                 on plain node with no TypeScript tooling, and the billing sandbox's page assets sit beside it
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";

const BUILDS = {
  web: { output: "dist/web/index.html", sources: ["web", "common"] },
  server: { output: "dist/server/main.js", sources: ["server", "common", "billing-sandbox"] },
};

/** @param {string} dir @returns {number} the newest modification time of a file under `dir`, in ms */
function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** @param {string} root the repository @returns {Array<"web" | "server">} the builds that are missing or older than a source file */
export function staleBuilds(root) {
  return /** @type {Array<"web" | "server">} */ (
    Object.entries(BUILDS)
      .filter(([, { output, sources }]) => {
        const built = path.join(root, output);
        if (!existsSync(built)) return true;
        const builtAt = statSync(built).mtimeMs;
        return sources.some((dir) => newestChange(path.join(root, dir)) > builtAt);
      })
      .map(([name]) => name)
  );
}

/** @param {string} root @param {Array<"web" | "server">} builds @returns {number} 0, or the exit status of the build that failed (its output goes to this terminal) */
export function build(root, builds = ["web", "server"]) {
  if (builds.includes("web")) {
    const web = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build"], { cwd: root, stdio: "inherit" });
    if (web.status !== 0) return web.status ?? 1;
  }
  if (builds.includes("server")) return buildServer(root);
  return 0;
}

/** Files the billing sandbox reads next to its own module at run time (billing-sandbox/pages.ts). */
const SANDBOX_ASSET = /\.(html|css|js)$/;

/** @param {string} root @returns {number} */
function buildServer(root) {
  const out = path.join(root, "dist/server");
  rmSync(out, { recursive: true, force: true });
  try {
    buildSync({
      entryPoints: [path.join(root, "server/main.ts")],
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      outdir: out,
      sourcemap: true,
      logLevel: "warning",
    });
  } catch {
    return 1; // esbuild has printed what failed
  }
  // The sandbox reads its pages' files relative to its module, which is now the bundle: they go beside it.
  const sandbox = path.join(root, "billing-sandbox");
  for (const file of readdirSync(sandbox, { recursive: true, encoding: "utf8" })) {
    if (SANDBOX_ASSET.test(file)) cpSync(path.join(sandbox, file), path.join(out, file));
  }
  return 0;
}

// `node scripts/build.mjs` builds both.
if (import.meta.filename === process.argv[1]) process.exit(build(path.resolve(import.meta.dirname, "..")));

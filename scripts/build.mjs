// `npm run build`: the web app into dist/web (Vite) and the server into dist/server (esbuild). Which builds exist and
// whether they are fresh is scripts/builds.mjs, which imports no build tool; this file needs the devDependencies.
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";

/** @param {string} root @param {Array<"web" | "server">} builds @returns {number} 0, or the exit status of the build that failed (its output goes to this terminal) */
export function build(root, builds = ["web", "server"]) {
  if (builds.includes("web")) {
    const web = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build"], {
      cwd: root,
      stdio: "inherit",
    });
    if (web.status !== 0) return web.status ?? 1;
  }
  if (builds.includes("server")) return buildServer(root);
  return 0;
}

/** Files the billing sandbox reads next to its own module at run time (billing-sandbox/pages.ts). */
const SANDBOX_ASSET = /\.(html|css|js)$/;

// Every command-line entry (server/**/*-cli.ts, such as db/migrate-cli.ts) is compiled beside main.js at the same
// path (dist/server/db/migrate-cli.js), so a production install runs them on plain node (scripts/cli.mjs).
const CLI_ENTRY = /-cli\.ts$/;

/** @param {string} root @returns {string[]} server/main.ts and the command-line entries */
function serverEntryPoints(root) {
  const server = path.join(root, "server");
  const clis = readdirSync(server, { recursive: true, encoding: "utf8" }).filter((file) => CLI_ENTRY.test(file));
  return [path.join(server, "main.ts"), ...clis.map((file) => path.join(server, file))];
}

/** @param {string} root @returns {number} */
function buildServer(root) {
  const out = path.join(root, "dist/server");
  rmSync(out, { recursive: true, force: true });
  try {
    buildSync({
      entryPoints: serverEntryPoints(root),
      outbase: path.join(root, "server"),
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

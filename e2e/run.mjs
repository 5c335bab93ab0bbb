// `npm run test:e2e`: builds the web app if it has never been built, then runs Playwright with the
// e2e config. Extra arguments go to Playwright (`npm run test:e2e -- sessions.spec.ts --headed`).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const require = createRequire(import.meta.url);

if (!existsSync(path.join(root, "dist/web/index.html"))) {
  console.log("dist/web is missing: building the web app…");
  const build = spawnSync(process.execPath, [path.join(root, "node_modules/vite/bin/vite.js"), "build"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const cli = require.resolve("@playwright/test/cli");
const result = spawnSync(
  process.execPath,
  [cli, "test", "-c", path.join(root, "e2e/playwright.config.ts"), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: "inherit",
  },
);
if (result.error) {
  console.error(result.error);
  process.exit(1);
}
process.exit(result.status ?? 1);

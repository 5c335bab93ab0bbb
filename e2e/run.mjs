// `npm run test:e2e`: builds the web app if it has never been built, then runs Playwright with the
// e2e config. Extra arguments go to Playwright (`npm run test:e2e -- sessions.spec.ts --headed`).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
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
if (result.status !== 0 && process.env.CI) printFailureContext();
process.exit(result.status ?? 1);

/**
 * CI keeps only what it prints, and records no trace (playwright.config.ts): after a failure, each failed test's
 * page as it was (Playwright's error-context.md) and the server's warnings and errors.
 */
function printFailureContext() {
  const results = path.join(root, "test-results");
  const failed = existsSync(path.join(results, "e2e")) ? readdirSync(path.join(results, "e2e")) : [];
  for (const folder of failed) {
    const context = path.join(results, "e2e", folder, "error-context.md");
    if (existsSync(context)) console.log(`\n--- ${folder}: error-context.md ---\n${readFileSync(context, "utf8")}`);
  }
  for (const log of readdirSync(results).filter((name) => /^e2e-server-\d+\.log$/.test(name))) {
    const lines = readFileSync(path.join(results, log), "utf8").split("\n");
    const notable = lines.filter((line) => /"level":"(warn|error)"/.test(line) || (line && !line.startsWith("{")));
    console.log(`\n--- ${log}: ${notable.length} warning and error lines of ${lines.length} (the last 60) ---`);
    console.log(notable.slice(-60).join("\n"));
  }
}

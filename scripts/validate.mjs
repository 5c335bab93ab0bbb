// `npm test` (`npm run validate`): every check, in order, stopping at the first that fails, then how long each
// took. The type check and the linter each use one core, so they run side by side; the rest runs one step at a
// time (each step uses every core itself). A step's output is printed when it ends, so two never interleave.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

const STAGES = [["typecheck", "lint"], ["test:unit"], ["test:int"], ["build"], ["test:production"], ["test:e2e"]];

/** Runs one npm script; with `buffer`, its output is kept and printed at the end (steps side by side). */
function run(script, buffer) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm, ["run", script], { cwd: root, stdio: buffer ? ["ignore", "pipe", "pipe"] : "inherit" });
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("close", (code) => {
      if (buffer) process.stdout.write(Buffer.concat(output));
      resolve({ script, code: code ?? 1, seconds: Math.round((Date.now() - started) / 1000) });
    });
  });
}

const timings = [];
let failed;
for (const stage of STAGES) {
  const results = await Promise.all(stage.map((script) => run(script, stage.length > 1)));
  timings.push(...results);
  failed = results.find((result) => result.code !== 0);
  if (failed) break;
}
console.log("\nvalidate: seconds per step");
for (const { script, code, seconds } of timings)
  console.log(`  ${script.padEnd(16)} ${String(seconds).padStart(5)} s${code ? "  failed" : ""}`);
process.exit(failed ? failed.code : 0);

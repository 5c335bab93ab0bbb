// `npm test` (`npm run validate`): every check, in order, stopping at the first that fails, then how long each
// took. The type check and the linter each use one core, so they run side by side; so do the browser tests and the
// fault tests, which wait on servers they stop and restart more than they compute (alone they used 43 % of the
// cores). A fault test bounds how fast the product answers and recovers, so it runs at a higher priority than the
// browser tests; where this process may not raise a priority (not root), the fault tests run after them instead.
// The rest runs one step at a time (each uses every core itself). Side by side, a step's output is printed when the
// stage ends, a failed step's last, so two never interleave and a log's tail shows what failed.
import { spawn } from "node:child_process";
import { getPriority, setPriority } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The step that runs at a raised priority beside another, and the niceness it gets (the others keep theirs). */
const PRIORITIZED = "test:faults";
const RAISED_NICENESS = -10;

function canRaisePriority() {
  const niceness = getPriority();
  try {
    setPriority(RAISED_NICENESS);
    setPriority(niceness);
    return true;
  } catch {
    return false;
  }
}

const LAST = canRaisePriority() ? [["test:e2e", PRIORITIZED]] : [["test:e2e"], [PRIORITIZED]];
const STAGES = [["typecheck", "lint"], ["test:unit"], ["test:int"], ["build"], ["test:production"], ...LAST];

/** Runs one npm script; with `buffer`, its output is kept and printed at the end (steps side by side). */
function run(script, buffer) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm, ["run", script], { cwd: root, stdio: buffer ? ["ignore", "pipe", "pipe"] : "inherit" });
    // Set before npm starts the script's processes, which inherit it.
    if (buffer && script === PRIORITIZED && child.pid) setPriority(child.pid, RAISED_NICENESS);
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("close", (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      resolve({ script, code: code ?? 1, seconds, output: Buffer.concat(output) });
    });
  });
}

const timings = [];
let failed;
for (const stage of STAGES) {
  const results = await Promise.all(stage.map((script) => run(script, stage.length > 1)));
  const passedFirst = [...results].sort((a, b) => Number(a.code !== 0) - Number(b.code !== 0));
  for (const { output } of passedFirst) process.stdout.write(output);
  timings.push(...results);
  failed = results.find((result) => result.code !== 0);
  if (failed) break;
}
console.log("\nvalidate: seconds per step");
for (const { script, code, seconds } of timings)
  console.log(`  ${script.padEnd(16)} ${String(seconds).padStart(5)} s${code ? "  failed" : ""}`);
process.exit(failed ? failed.code : 0);

// `npm run test:faults`: the fault tests (`*.fault.test.ts`), one file at a time: real servers of the tests' own
// stopped, restarted and killed, on PostgreSQL and Redis (TEST_DATABASE_URL and TEST_REDIS_URL; without them the run
// says so and does nothing, and under CI it fails).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { isPostgres, requireTestServersInCi } from "./test-servers.mjs";

const root = path.resolve(import.meta.dirname, "..");
requireTestServersInCi("the fault tests");
if (!isPostgres || !process.env.TEST_REDIS_URL) {
  console.log("--- fault tests not run: they need TEST_DATABASE_URL=postgres://… and TEST_REDIS_URL=redis://… ---");
  process.exit(0);
}
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const args = ["run", "--project", "faults", ...process.argv.slice(2)];
const result = spawnSync(process.execPath, [vitest, ...args], { cwd: root, stdio: "inherit" });
process.exit(result.status ?? 1);

// `npm run test:int`: the integration suite on SQLite, then the same files on PostgreSQL when
// TEST_DATABASE_URL is a postgres:// URL (CI sets it, so CI runs both), then the fault tests, which need
// PostgreSQL and Redis (TEST_DATABASE_URL and TEST_REDIS_URL). With CI set, either missing fails the run.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const extraArgs = process.argv.slice(2);
const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * Files whose outcome does not depend on the app's database: the billing sandbox's own tests and fuzzing (the provider
 * stand-in keeps its own store) and the tests that open a database of their own. The PostgreSQL run leaves them out:
 * they ran on the SQLite run, and the sandbox's fuzzing alone was a sixth of the PostgreSQL run.
 */
const DATABASE_INDEPENDENT = [
  "billing-sandbox/**",
  "server/http/fuzz-sandbox.int.test.ts",
  "server/db/database.int.test.ts",
  "server/db/sqlite-transactions.int.test.ts",
];

function run(label, env, project = "integration", excluded = []) {
  console.log(`\n--- ${project} tests on ${label} ---`);
  const exclusions = excluded.flatMap((pattern) => ["--exclude", pattern]);
  const result = spawnSync(process.execPath, [vitest, "run", "--project", project, ...exclusions, ...extraArgs], {
    cwd: root,
    stdio: "inherit",
    env,
  });
  return result.status ?? 1;
}

const isPostgres = Boolean(postgresUrl && /^postgres(ql)?:\/\//.test(postgresUrl));
// In CI a missing server is a broken pipeline, not a reason to pass with less: the PostgreSQL run and the fault
// tests would be skipped without anyone noticing.
const isCi = Boolean(process.env.CI) && process.env.CI !== "false" && process.env.CI !== "0";
const missing = [];
if (!isPostgres) missing.push("TEST_DATABASE_URL=postgres://…");
if (!process.env.TEST_REDIS_URL) missing.push("TEST_REDIS_URL=redis://…");
if (isCi && missing.length > 0) {
  console.error(`CI is set and the integration run needs ${missing.join(" and ")}:`);
  console.error("it fails rather than skip the PostgreSQL run and the fault tests.");
  process.exit(1);
}

const { TEST_DATABASE_URL: _ignored, ...sqliteEnv } = process.env;
let status = run("SQLite", sqliteEnv);
// The fuzzers' random runs per endpoint on PostgreSQL: 7, a third of SQLite's 20. Their fixed edge cases (a NUL in
// every field and parameter, every field of the wrong type, 1e999) run in full on both; the random inputs mostly test
// the app's parsing, the same on both, and took half of the PostgreSQL run's worker time (189 s; 48 s on SQLite).
const postgresEnv = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? "7" };
if (status === 0 && isPostgres) status = run("PostgreSQL", postgresEnv, "integration", DATABASE_INDEPENDENT);
if (status === 0 && isPostgres && process.env.TEST_REDIS_URL)
  status = run("PostgreSQL and Redis", process.env, "faults");
else if (status === 0)
  console.log("\n--- fault tests not run: they need TEST_DATABASE_URL=postgres://… and TEST_REDIS_URL=redis://… ---");
process.exit(status);

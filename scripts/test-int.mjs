// `npm run test:int`: the integration suite on SQLite, then the same files on PostgreSQL when
// TEST_DATABASE_URL is a postgres:// URL (CI sets it, so CI runs both). The fault tests are `npm run test:faults`.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { isPostgres, requireTestServersInCi } from "./test-servers.mjs";

const root = path.resolve(import.meta.dirname, "..");
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const extraArgs = process.argv.slice(2);

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

requireTestServersInCi("the integration run");

const { TEST_DATABASE_URL: _ignored, ...sqliteEnv } = process.env;
let status = run("SQLite", sqliteEnv);
// The fuzzers' random runs per endpoint on PostgreSQL: 7, a third of SQLite's 20. Their fixed edge cases (a NUL in
// every field and parameter, every field of the wrong type, 1e999) run in full on both; the random inputs mostly test
// the app's parsing, the same on both, and took half of the PostgreSQL run's worker time (189 s; 48 s on SQLite).
const postgresEnv = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? "7" };
if (status === 0 && isPostgres) status = run("PostgreSQL", postgresEnv, "integration", DATABASE_INDEPENDENT);
process.exit(status);

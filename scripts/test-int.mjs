// `npm run test:int`: the integration suite on SQLite, then the same files on PostgreSQL when
// TEST_DATABASE_URL is a postgres:// URL (CI sets it, so CI runs both).
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const extraArgs = process.argv.slice(2);
const postgresUrl = process.env.TEST_DATABASE_URL;

function run(label, env) {
  console.log(`\n--- integration tests on ${label} ---`);
  const result = spawnSync(process.execPath, [vitest, "run", "--project", "integration", ...extraArgs], { cwd: root, stdio: "inherit", env });
  return result.status ?? 1;
}

const { TEST_DATABASE_URL: _ignored, ...sqliteEnv } = process.env;
let status = run("SQLite", sqliteEnv);
if (status === 0 && postgresUrl && /^postgres(ql)?:\/\//.test(postgresUrl)) status = run("PostgreSQL", process.env);
process.exit(status);

// The servers the integration and fault tests need beyond SQLite: PostgreSQL (TEST_DATABASE_URL) and Redis
// (TEST_REDIS_URL). Without them a run does less and says so; under CI it fails instead, so that a broken pipeline
// is not mistaken for a passing one.

const postgresUrl = process.env.TEST_DATABASE_URL;
export const isPostgres = Boolean(postgresUrl && /^postgres(ql)?:\/\//.test(postgresUrl));
const isCi = Boolean(process.env.CI) && process.env.CI !== "false" && process.env.CI !== "0";

/** Exits 1 under CI when PostgreSQL or Redis is not configured; `what` names the run that needs them. */
export function requireTestServersInCi(what) {
  const missing = [];
  if (!isPostgres) missing.push("TEST_DATABASE_URL=postgres://…");
  if (!process.env.TEST_REDIS_URL) missing.push("TEST_REDIS_URL=redis://…");
  if (!isCi || missing.length === 0) return;
  console.error(`CI is set, and ${what} cannot run without ${missing.join(" and ")}: it fails rather than run less.`);
  process.exit(1);
}

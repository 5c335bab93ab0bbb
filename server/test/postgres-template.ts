import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase } from "../db/database";
import { migrateToLatest } from "../db/migrate";

/**
 * The integration project's global setup: on a PostgreSQL run, one database migrated once, which every test app's
 * own database is then copied from (`CREATE DATABASE … TEMPLATE`): migrating each of them took about a second, a
 * copy a quarter of that. Named in POSTGRES_TEMPLATE_ENV for the test workers, which start after this; dropped at
 * the end. Tests of the migrations themselves start from an empty database (`createTestDatabase()`).
 */
export const POSTGRES_TEMPLATE_ENV = "ATRIUM_TEST_POSTGRES_TEMPLATE";

export default async function setUpPostgresTemplate(): Promise<(() => Promise<void>) | undefined> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? "";
  if (!/^postgres(ql)?:\/\//.test(serverUrl)) return undefined;
  const name = `atrium_template_${randomBytes(6).toString("hex")}`;
  const admin = async <T extends pg.QueryResultRow>(statement: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return (await client.query<T>(statement, values)).rows;
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ dialect: "postgres", url: url.toString() });
  try {
    await migrateToLatest(handle.db, { authSecret: null });
  } finally {
    await handle.close();
  }
  // A database is copied only while nobody is connected to it: the closed pool's connections end in the background.
  const connected = `SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = $1`;
  for (let deadline = Date.now() + 5_000; Date.now() < deadline;) {
    if ((await admin<{ count: number }>(connected, [name]))[0]?.count === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  process.env[POSTGRES_TEMPLATE_ENV] = name;
  return async () => {
    delete process.env[POSTGRES_TEMPLATE_ENV];
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
}

import SQLite from "better-sqlite3";

const ELEVEN_MINUTES_MS = 11 * 60 * 1000;

/**
 * The tag of the tests that write the server's database behind its back. Such a write, landing while another test's
 * request is inside a transaction that has read and not yet written, fails that transaction (SQLITE_BUSY_SNAPSHOT: a
 * sign-up answered "could not be created"); playwright.config.ts gives these tests a server of their own
 * (global-setup.ts), where they run one at a time.
 */
export const WRITES_THE_DATABASE = "@writes-the-database";

/**
 * Makes every session of the person older than fresh authentication allows (10 minutes,
 * server/auth/fresh-authentication.ts), as 11 minutes of waiting would: their rows' sign-in and re-check times move
 * back. The database is the SQLite file of the tagged tests' own server (global-setup.ts publishes its path): a person
 * of the other server is not found there, and this throws.
 */
export function makeSessionsStale(email: string): void {
  const file = process.env.ATRIUM_E2E_WRITERS_DATABASE_PATH;
  if (!file)
    throw new Error("ATRIUM_E2E_WRITERS_DATABASE_PATH is not set: run the tests through e2e/playwright.config.ts");
  const database = new SQLite(file, { fileMustExist: true, timeout: 5_000 });
  try {
    const past = new Date(Date.now() - ELEVEN_MINUTES_MS).toISOString();
    const changed = database
      .prepare(
        `update "session" set "createdAt" = ?, "updatedAt" = ?, "reauthenticatedAt" = null
         where "userId" = (select "id" from "user" where "email" = ?)`,
      )
      .run(past, past, email.toLowerCase()).changes;
    if (changed === 0) throw new Error(`No session of ${email} to make stale`);
  } finally {
    database.close();
  }
}

import SQLite from "better-sqlite3";

const ELEVEN_MINUTES_MS = 11 * 60 * 1000;

/**
 * Makes every session of the person older than fresh authentication allows (10 minutes,
 * server/auth/fresh-authentication.ts), as 11 minutes of waiting would: their rows' sign-in and re-check times move
 * back. The server's database is the run's SQLite file (global-setup.ts publishes its path).
 */
export function makeSessionsStale(email: string): void {
  const file = process.env.ATRIUM_E2E_DATABASE_PATH;
  if (!file) throw new Error("ATRIUM_E2E_DATABASE_PATH is not set: run the tests through e2e/playwright.config.ts");
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

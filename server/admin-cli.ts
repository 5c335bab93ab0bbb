import { loadConfig } from "./config";
import { openDatabase } from "./db/database";
import { migrateToLatest } from "./db/migrate";
import { changePlatformRoleFromCommandLine } from "./modules/admin";

/**
 * `npm run admin -- grant EMAIL` makes the user with that e-mail a platform admin; `revoke EMAIL` takes it away.
 * For the first admin of a deployment without ADMIN_EMAILS. Works on the database DATABASE_URL names.
 */
const USAGE = "Usage: npm run admin -- grant EMAIL | revoke EMAIL";
const [action, email, ...rest] = process.argv.slice(2);
if ((action !== "grant" && action !== "revoke") || !email || rest.length > 0) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

const config = loadConfig();
const database = openDatabase(config.database);
try {
  await migrateToLatest(database.db, { authSecret: config.authSecret });
  const { adminUserIds, adminEmails } = config;
  const result = await changePlatformRoleFromCommandLine(database.db, adminUserIds, { action, email }, adminEmails);
  process.stdout.write(
    result.changed
      ? `${result.email} is ${action === "grant" ? "now a platform admin" : "no longer a platform admin"} (role ${result.from} → ${result.to}).\n`
      : `${result.email} already has the role ${result.to}: nothing changed.\n`,
  );
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
}

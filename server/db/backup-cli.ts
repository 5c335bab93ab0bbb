import { ConfigError, loadConfig } from "../config";
import { backupDatabase, defaultBackupFile, describeDatabase, formatBytes } from "./backup";
import { BackupError } from "./backup-error";

/**
 * `npm run db:backup [-- FILE]`: a consistent copy of the database DATABASE_URL names, safe while servers run
 * (server/db/backup.ts). Without FILE it goes to DATA_DIR/backups/ under a timestamped name.
 * Exits 0 with the file and its size, 1 with a one-line reason, 2 on bad usage.
 */
const USAGE = "Usage: npm run db:backup [-- FILE]";
const args = process.argv.slice(2);
if (args.length > 1 || args.some((arg) => arg.startsWith("-"))) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

try {
  const config = loadConfig();
  const backup = await backupDatabase(config.database, args[0] ?? defaultBackupFile(config));
  process.stdout.write(
    `Backed up ${describeDatabase(config.database)} to ${backup.file} (${formatBytes(backup.bytes)}).\n`,
  );
} catch (error) {
  if (!(error instanceof BackupError || error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
